import { DOC_KEYS, isObject, type Json, same } from "./context.ts";
import { numberAdmitted } from "./enum-values.ts";
import { samplePattern } from "./regex-samples.ts";

/**
 * Scalar schemas compared as the sets of values they admit, rather than keyword by keyword. The
 * same set is often spelled with other keywords: an `anyOf` of an integer and a number range, a
 * range split into `oneOf` halves, an enum as an `anyOf` of consts or as a pattern alternating
 * literals, a type list as an `anyOf` of types. And a composition can narrow what no single
 * keyword says: overlapping `oneOf` branches refuse the values they share. Each side is evaluated
 * (allOf all, anyOf some, oneOf exactly one, not none) on candidate values drawn from both
 * schemas: every bound with its neighbours, every listed value and its near misses, strings
 * drawn from every pattern. A value one side admits and the other refuses is a witness. Without
 * a witness the sets are taken as equal when every pattern that differs lists its literals (a
 * finite set the candidates cover), and left undecided otherwise.
 */
export interface ValueSetChange {
  /** A value base admits and head refuses. */
  lost?: unknown;
  /** A value head admits and base refuses. */
  gained?: unknown;
  /** No witness, yet a pattern differs that the candidates may not cover: a reviewer decides. */
  undecided: boolean;
}

const NUMERIC = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const SCALAR_KEYS = new Set([
  "type",
  "nullable",
  "enum",
  "const",
  ...NUMERIC,
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  ...DOC_KEYS,
]);
const COMPOSITIONS = ["allOf", "anyOf", "oneOf"] as const;
const MAX_DEPTH = 6;

/** A schema of scalar values only (no object or array keyword or type), through its compositions. */
export function isScalarSchema(s: unknown, depth = 0): boolean {
  if (!isObject(s) || depth > MAX_DEPTH) return false;
  const types = s.type === undefined ? [] : [s.type].flat().map(String);
  if (types.includes("object") || types.includes("array")) return false;
  for (const [k, v] of Object.entries(s)) {
    if (SCALAR_KEYS.has(k)) continue;
    if ((COMPOSITIONS as readonly string[]).includes(k)) {
      if (!Array.isArray(v) || !v.every((x) => isScalarSchema(x, depth + 1))) return false;
    } else if (k === "not") {
      if (!isScalarSchema(v, depth + 1)) return false;
    } else return false;
  }
  return true;
}

/** Whether the schema holds a composition, where keyword-by-keyword comparison goes wrong. */
export function hasComposition(s: Json): boolean {
  return COMPOSITIONS.some((k) => Array.isArray(s[k]));
}

/** One side lists values (enum, const) where the other spells them as a pattern. */
export function enumRespelled(b: Json, h: Json): boolean {
  const lists = (s: Json) => Array.isArray(s.enum) || "const" in s;
  return (
    (lists(b) && !lists(h) && typeof h.pattern === "string") ||
    (lists(h) && !lists(b) && typeof b.pattern === "string")
  );
}

export function compareValueSets(b: Json, h: Json): ValueSetChange {
  const out: ValueSetChange = { undecided: false };
  for (const v of candidates(b, h)) {
    const inB = admits(b, v, 0);
    const inH = admits(h, v, 0);
    if (inB === undefined || inH === undefined) {
      out.undecided = true;
      continue;
    }
    if (inB && !inH) out.lost ??= v;
    if (inH && !inB) out.gained ??= v;
    if (out.lost !== undefined && out.gained !== undefined) break;
  }
  if (out.lost !== undefined || out.gained !== undefined) return { ...out, undecided: false };
  const pb = keywordValues(b, "pattern");
  const ph = keywordValues(h, "pattern");
  const differing = [...pb].filter((p) => !ph.has(p)).concat([...ph].filter((p) => !pb.has(p)));
  if (differing.some((p) => literalsOf(p) === undefined)) out.undecided = true;
  return out;
}

/** The values a schema admits when it is a finite list (enum, const, a literal alternation), else undefined. */
export function finiteValues(s: Json, depth = 0): unknown[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  let values: unknown[] | undefined;
  if (Array.isArray(s.enum)) values = s.enum;
  else if ("const" in s) values = [s.const];
  else if (typeof s.pattern === "string") values = literalsOf(s.pattern);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(s[key]) || values !== undefined) continue;
    const lists = (s[key] as unknown[]).map((x) => (isObject(x) ? finiteValues(x, depth + 1) : undefined));
    if (lists.every((l) => l !== undefined)) values = (lists as unknown[][]).flat();
  }
  if (values === undefined && Array.isArray(s.allOf))
    for (const part of s.allOf) if (isObject(part)) values ??= finiteValues(part, depth + 1);
  return values?.filter((v, i) => admits(s, v, 0) === true && values.findIndex((w) => same(v, w)) === i);
}

/**
 * The strings an anchored pattern of literal alternatives matches (`^(a|b)$`, `^zdm$`), or
 * undefined for any other pattern.
 */
export function literalsOf(pattern: string): string[] | undefined {
  const m = /^\^(?:\((?:\?:)?([^()]*)\)|([^()|]*))\$$/.exec(pattern);
  const body = m?.[1] ?? m?.[2];
  if (body === undefined) return undefined;
  const parts = body.split("|");
  const literal = /^(?:[^\\^$.*+?()[\]{}|]|\\[\\^$.*+?()[\]{}|/-])*$/;
  if (!parts.every((p) => literal.test(p))) return undefined;
  return parts.map((p) => p.replace(/\\(.)/g, "$1"));
}

/** The strings a keyword holds anywhere in the schema, its compositions included. */
export function keywordValues(s: unknown, key: string, depth = 0, out = new Set<string>()): Set<string> {
  if (!isObject(s) || depth > MAX_DEPTH) return out;
  if (typeof s[key] === "string") out.add(s[key] as string);
  for (const k of COMPOSITIONS)
    if (Array.isArray(s[k])) for (const x of s[k]) keywordValues(x, key, depth + 1, out);
  if (isObject(s.not)) keywordValues(s.not, key, depth + 1, out);
  return out;
}

/**
 * The default a schema states, itself or in its compositions' parts (`allOf: [{...}, {default: 10}]`):
 * what a server assumes either way. Several different defaults in parts leave it as written.
 */
export function defaultOf(s: Json, depth = 0): unknown {
  if ("default" in s || depth > MAX_DEPTH) return s.default;
  const found = COMPOSITIONS.flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : []))
    .filter(isObject)
    .map((x) => defaultOf(x, depth + 1))
    .filter((d) => d !== undefined);
  return found.length > 0 && found.every((d) => same(d, found[0])) ? found[0] : undefined;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Whether `v` is valid against the scalar schema; undefined when a pattern cannot be compiled. */
export function admits(s: unknown, v: unknown, depth: number): boolean | undefined {
  if (!isObject(s)) return s !== false;
  if (depth > MAX_DEPTH) return undefined;
  if (s.type !== undefined) {
    const types = [s.type].flat().map(String);
    if (s.nullable === true) types.push("null");
    const t = typeOf(v);
    if (!types.includes(t) && !(t === "integer" && types.includes("number"))) return false;
  }
  if (Array.isArray(s.enum) && !s.enum.some((x) => same(x, v))) return false;
  if ("const" in s && !same(s.const, v)) return false;
  if (typeof v === "number" && !numberAdmitted(s, v)) return false;
  if (typeof v === "string") {
    const length = [...v].length;
    if (typeof s.minLength === "number" && length < s.minLength) return false;
    if (typeof s.maxLength === "number" && length > s.maxLength) return false;
    if (typeof s.pattern === "string") {
      const re = compile(s.pattern);
      if (!re) return undefined;
      if (!re.test(v)) return false;
    }
  }
  let undecided = false;
  const each = (x: unknown) => {
    const r = admits(x, v, depth + 1);
    if (r === undefined) undecided = true;
    return r === true;
  };
  if (Array.isArray(s.allOf) && !s.allOf.every(each)) return undecided ? undefined : false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some(each)) return undecided ? undefined : false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter(each).length !== 1) return undecided ? undefined : false;
  if (s.not !== undefined) {
    const r = admits(s.not, v, depth + 1);
    if (r === undefined) return undefined;
    if (r) return false;
  }
  return undecided ? undefined : true;
}

const REGEXES = new Map<string, RegExp | undefined>();
function compile(p: string): RegExp | undefined {
  if (!REGEXES.has(p)) {
    try {
      REGEXES.set(p, new RegExp(p, "u"));
    } catch {
      REGEXES.set(p, undefined);
    }
  }
  return REGEXES.get(p);
}

/** What the schemas mention: their numbers, strings and patterns, found through compositions. */
function mentions(s: unknown, depth: number, out: { numbers: number[]; strings: string[] }): void {
  if (!isObject(s) || depth > MAX_DEPTH) return;
  for (const k of [...NUMERIC, "multipleOf"]) if (typeof s[k] === "number") out.numbers.push(s[k] as number);
  for (const k of ["minLength", "maxLength"])
    if (typeof s[k] === "number")
      out.strings.push(..."a0".split("").flatMap((c) => lengths(c, s[k] as number)));
  const listed = [...(Array.isArray(s.enum) ? s.enum : []), ...("const" in s ? [s.const] : [])];
  for (const v of listed) {
    if (typeof v === "number") out.numbers.push(v);
    if (typeof v === "string") out.strings.push(v);
  }
  if (typeof s.pattern === "string") {
    const literals = literalsOf(s.pattern);
    out.strings.push(...(literals ?? samplePattern(s.pattern, 60) ?? []));
  }
  for (const k of COMPOSITIONS) if (Array.isArray(s[k])) for (const x of s[k]) mentions(x, depth + 1, out);
  mentions(s.not, depth + 1, out);
}

function lengths(c: string, n: number): string[] {
  return [n - 1, n, n + 1].filter((k) => k >= 0 && k <= 1000).map((k) => c.repeat(k));
}

const NUMBER_POOL = [0, 1, -1, 0.5, -0.5, 1.5, 2, 10, 100, 1e9 + 0.5, -1e9];
const STRING_POOL = ["", "a", "A", "0", "1", "a1", "_", "-", "x y", "中", "true", "#", "a#b"];

function* candidates(b: Json, h: Json): Generator<unknown> {
  const found = { numbers: [] as number[], strings: [] as string[] };
  mentions(b, 0, found);
  mentions(h, 0, found);
  yield null;
  yield true;
  yield false;
  const numbers = new Set<number>(NUMBER_POOL);
  for (const n of found.numbers)
    for (const d of [0, -1, 1, -0.5, 0.5, -0.001, 0.001, n, -n]) numbers.add(n + d);
  yield* numbers;
  const strings = new Set<string>(STRING_POOL);
  for (const s of found.strings)
    for (const t of [s, `${s}x`, `x${s}`, s.slice(1), s.slice(0, -1), s.toUpperCase()]) strings.add(t);
  yield* strings;
}
