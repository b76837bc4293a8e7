/**
 * The watch's rotating sample: valid requests to every public operation, read from the spec
 * (one per value of an enumerated parameter, the operation's defaults otherwise), interleaved so
 * that any window of the rotation spreads over the operations.
 */
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { RequestCase } from "../types.ts";

function variants(op: Operation): RequestCase[] {
  const request = (pathname: string, query: [string, string][]): RequestCase => ({
    method: "GET",
    operationId: op.operationId,
    pathname,
    query,
    headers: {},
    label: "watch",
  });
  const pathParams = op.parameters.filter((p) => p.in === "path");
  // A path parameter needs a value: one request per enumerated value, none when it has none.
  let paths = [op.path];
  for (const p of pathParams) {
    const values = (p.schema.enum ?? []).map(String);
    paths = paths.flatMap((path) => values.map((v) => path.replace(`{${p.name}}`, encodeURIComponent(v))));
  }
  const query = op.parameters.filter((p) => p.in === "query");
  const required = query.filter((p) => p.required);
  // A required query parameter without enumerated values cannot be guessed (uid): no sample.
  if (required.some((p) => !p.schema.enum?.length)) return [];
  const out: RequestCase[] = [];
  for (const path of paths) {
    const base: [string, string][] = required.map((p) => [p.name, String(p.schema.enum?.[0])]);
    out.push(request(path, base));
    for (const p of query) {
      for (const v of (p.schema.enum ?? []).map(String)) {
        if (v === String(p.schema.default) || (p.required && v === String(p.schema.enum?.[0]))) continue;
        out.push(request(path, [...base.filter(([k]) => k !== p.name), [p.name, v]]));
      }
    }
  }
  return out;
}

/** Every sample request, round-robin across the public operations (key-protected ones need an account). */
export function sampleRequests(spec: Spec): RequestCase[] {
  const lists = spec.operations.filter((op) => !op.secured).map(variants);
  const out: RequestCase[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const r = l[i];
      if (r) out.push(r);
    }
  }
  return out;
}

/** `count` requests of the rotation starting at `cursor` (wrapping). */
export function rotation<T>(all: T[], cursor: number, count: number): T[] {
  if (all.length === 0) return [];
  return Array.from({ length: Math.min(count, all.length) }, (_, i) => all[(cursor + i) % all.length] as T);
}
