import { writtenAt } from "./pointer.ts";
import { type RuleId, ruleInfo } from "./rules.ts";
import type { Finding } from "./types.ts";

export type Json = Record<string, unknown>;
export type Direction = "request" | "response";

/**
 * Where the walk is: the same thing's tokens in each dereferenced document (they differ when a
 * parameter moved in its list, or across majors where /api/v1/x pairs with /api/v2/x).
 */
export interface At {
  base: string[];
  head: string[];
  operation?: string;
  parameter?: string;
  /** Human name of the value, e.g. `200 application/json body data[].title`. */
  field?: string;
}

export function down(at: At, ...tokens: string[]): At {
  return { ...at, base: [...at.base, ...tokens], head: [...at.head, ...tokens] };
}

/** Collects findings; turns walked tokens into pointers into the documents as written. */
export class Collector {
  readonly findings: Finding[] = [];

  constructor(
    readonly baseRaw: unknown,
    readonly headRaw: unknown,
  ) {}

  /** `side` names the document the thing exists in: base for a removal, head otherwise. */
  add(rule: RuleId, at: At, message: string, side: "base" | "head" = "head"): void {
    const pointer = side === "base" ? writtenAt(this.baseRaw, at.base) : writtenAt(this.headRaw, at.head);
    const location: Finding["location"] = { pointer, in: side };
    if (at.operation) location.operation = at.operation;
    const [paths, path, method] = at.head;
    const successor = paths === "paths" && path && method ? `${method.toUpperCase()} ${path}` : undefined;
    if (at.operation && successor && successor !== at.operation) location.successor = successor;
    if (at.parameter) location.parameter = at.parameter;
    this.findings.push({ rule, level: ruleInfo(rule).level, location, message });
  }
}

export function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function obj(v: unknown): Json {
  return isObject(v) ? v : {};
}

/**
 * Deep equality: order-insensitive for object keys, order-sensitive for arrays. Dereferenced
 * documents may be cyclic; a pair already being compared counts as equal.
 */
export function same(a: unknown, b: unknown, open = new Map<object, object>()): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (open.get(a) === b) return true;
  open.set(a, b as object);
  try {
    if (Array.isArray(a)) {
      const bb = b as unknown[];
      return a.length === bb.length && a.every((x, i) => same(x, bb[i], open));
    }
    const ka = Object.keys(a as Json);
    const kb = Object.keys(b as Json);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.hasOwn(b as Json, k) && same((a as Json)[k], (b as Json)[k], open))
    );
  } finally {
    open.delete(a);
  }
}

export function show(v: unknown): string {
  return JSON.stringify(v) ?? "undefined";
}

/** Keys whose changes are documentation only, wherever they appear. */
export const DOC_KEYS = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "$comment",
  "tags",
  "source",
  "contact",
  "license",
  "termsOfService",
  "x-not-provided",
]);

/**
 * The fallback for keys no specific rule handles: documentation keys are info, anything else
 * is an unclassified warning, so no change is ever silent.
 */
export function compareRest(c: Collector, b: Json, h: Json, at: At, handled: ReadonlySet<string>): void {
  const keys = new Set([...Object.keys(b), ...Object.keys(h)]);
  for (const key of keys) {
    if (handled.has(key) || same(b[key], h[key])) continue;
    const where = down(at, key);
    const side = key in h ? "head" : "base";
    const what = !(key in b) ? "added" : !(key in h) ? "removed" : "changed";
    const name = at.field ? `${at.field}: ` : "";
    if (DOC_KEYS.has(key)) c.add("documentation-changed", where, `${name}${key} ${what}`, side);
    else
      c.add("unclassified-change", where, `${name}${key} ${what}: ${brief(b[key])} → ${brief(h[key])}`, side);
  }
}

export function brief(v: unknown): string {
  const s = show(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
