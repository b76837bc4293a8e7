import SwaggerParser from "@apidevtools/swagger-parser";
import { InputError } from "../errors/input-error.ts";
import type { Json } from "./context.ts";
import { fromPointer } from "./pointer.ts";

// Inputs are treated as immutable: one dereferenced copy per raw document (the guard and the
// tests diff the same base many times).
const cache = new WeakMap<Json, Promise<Json>>();

/**
 * The document with every $ref resolved. Local refs (all this kit writes) are resolved here,
 * several times faster than swagger-parser, keeping shared components shared and cycles
 * cyclic as it does; a document with an external ref goes through swagger-parser.
 */
export function dereference(raw: Json): Promise<Json> {
  let pending = cache.get(raw);
  if (!pending) {
    pending = hasExternalRef(raw)
      ? (SwaggerParser.dereference(structuredClone(raw) as never) as Promise<unknown>).then(
          (doc) => doc as Json,
          (err: Error) => {
            throw new InputError(`cannot resolve $refs: ${err.message.split("\n")[0]}`);
          },
        )
      : new Promise((resolve) => resolve(resolveLocal(raw)));
    cache.set(raw, pending);
  }
  return pending;
}

function hasExternalRef(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  const ref = (node as Json).$ref;
  if (typeof ref === "string" && !ref.startsWith("#")) return true;
  return Object.values(node).some(hasExternalRef);
}

function resolveLocal(root: Json): Json {
  const done = new Map<object, unknown>();
  const visit = (node: unknown, refs: string[]): unknown => {
    if (node === null || typeof node !== "object") return node;
    const { $ref: ref, ...siblings } = node as Json;
    if (typeof ref === "string") {
      if (refs.includes(ref)) throw new InputError(`cannot resolve $refs: ${ref} refers to itself`);
      const target = fromPointer(decodeURIComponent(ref.slice(1))).reduce<unknown>(
        (n, t) => (n as Json | undefined)?.[t],
        root,
      );
      if (target === undefined) throw new InputError(`cannot resolve $refs: ${ref} points nowhere`);
      const resolved = visit(target, [...refs, ref]);
      // OAS 3.1 allows siblings next to $ref (summary, description): they override the target's.
      return Object.keys(siblings).length
        ? { ...(resolved as Json), ...(visit(siblings, []) as Json) }
        : resolved;
    }
    const seen = done.get(node);
    if (seen) return seen;
    const out: Json | unknown[] = Array.isArray(node) ? [] : {};
    done.set(node, out);
    for (const [k, v] of Object.entries(node)) (out as Json)[k] = visit(v, []);
    return out;
  };
  return visit(root, []) as Json;
}
