import { DOC_KEYS, isObject, type Json, same } from "./context.ts";

/**
 * Equivalent ways of writing one schema, brought to one form before two schemas are compared:
 * an `allOf` whose parts merge into one object, a `oneOf`/`anyOf` of a single branch, and a
 * `oneOf`/`anyOf` of bare types (`[{type: string}, {type: "null"}]`, the nullable idiom) are the
 * schema they spell. Only a composition the other side lacks is absorbed (`absorbMissing`): when
 * both sides have one, their branches pair as written, which keeps messages and pointers exact.
 * A composition that does not merge cleanly (conflicting keywords) is left as it is.
 */
export function absorbMissing(b: Json, h: Json): [Json, Json] {
  let [nb, nh] = [b, h];
  for (const key of COMPOSITIONS) {
    const inB = Array.isArray(nb[key]);
    const inH = Array.isArray(nh[key]);
    if (inB && !inH) nb = absorb(nb, key, 0);
    if (inH && !inB) nh = absorb(nh, key, 0);
  }
  return [nb, nh];
}

const COMPOSITIONS = ["allOf", "oneOf", "anyOf"] as const;
type Composition = (typeof COMPOSITIONS)[number];

const LOWER = new Set(["minimum", "minLength", "minItems", "minProperties"]);
const UPPER = new Set(["maximum", "maxLength", "maxItems", "maxProperties"]);
/** Keys a branch may carry and still be "a bare type" in a oneOf/anyOf of types. */
const TYPE_ONLY = new Set(["type", "nullable", ...DOC_KEYS]);
/** Nested allOf deeper than this is left alone (and a cyclic allOf cannot loop). */
const MAX_DEPTH = 8;

function absorb(s: Json, key: Composition, depth: number): Json {
  const branches = s[key] as unknown[];
  if (depth > MAX_DEPTH || !branches.every(isObject)) return s;
  const { [key]: _, ...rest } = s;
  const parts = (branches as Json[]).map((x) => (Array.isArray(x.allOf) ? absorb(x, "allOf", depth + 1) : x));
  if (key === "allOf" || parts.length === 1) return mergeAll(rest, parts) ?? s;
  const types = typeUnion(parts);
  if (types) return mergeAll(rest, [{ type: types }]) ?? s;
  return nullableIdiom(rest, parts) ?? s;
}

/** `oneOf: [X, {type: "null"}]`: X, or null. */
function nullableIdiom(rest: Json, parts: Json[]): Json | undefined {
  const isNull = (p: Json) => typeUnion([p])?.join() === "null";
  const others = parts.filter((p) => !isNull(p));
  if (parts.length !== 2 || others.length !== 1) return undefined;
  const merged = mergeAll(rest, others);
  if (!merged || merged.type === undefined) return merged;
  const types = [merged.type].flat().map(String);
  return { ...merged, type: types.includes("null") ? types : [...types, "null"] };
}

/** The union of the types of branches that are bare types, or undefined when one is more. */
function typeUnion(parts: Json[]): string[] | undefined {
  const out: string[] = [];
  for (const p of parts) {
    if (!Object.keys(p).every((k) => TYPE_ONLY.has(k)) || p.type === undefined) return undefined;
    for (const t of [p.type].flat().map(String)) if (!out.includes(t)) out.push(t);
    if (p.nullable === true && !out.includes("null")) out.push("null");
  }
  return out;
}

function mergeAll(first: Json, parts: Json[]): Json | undefined {
  let acc: Json | undefined = { ...first };
  for (const p of parts) {
    acc = merge(acc, p);
    if (!acc) return undefined;
  }
  return acc;
}

/** Both schemas at once (the conjunction), or undefined when they conflict in a way not merged here. */
function merge(a: Json, b: Json): Json | undefined {
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (!(k in out) || same(out[k], v)) {
      out[k] = v;
      continue;
    }
    const cur = out[k];
    if (DOC_KEYS.has(k)) continue;
    if (LOWER.has(k) && typeof cur === "number" && typeof v === "number") out[k] = Math.max(cur, v);
    else if (UPPER.has(k) && typeof cur === "number" && typeof v === "number") out[k] = Math.min(cur, v);
    else if (k === "required" && Array.isArray(cur) && Array.isArray(v))
      out[k] = [...new Set([...cur, ...v].map(String))];
    else if (k === "enum" && Array.isArray(cur) && Array.isArray(v))
      out[k] = cur.filter((x) => v.some((y) => same(x, y)));
    else if (k === "type") {
      const types = intersectTypes(cur, v);
      if (!types) return undefined;
      out[k] = types;
    } else if (k === "properties" && isObject(cur) && isObject(v)) {
      const props: Json = { ...cur };
      for (const [p, schema] of Object.entries(v)) {
        const prev = props[p];
        props[p] = prev === undefined || same(prev, schema) ? schema : { allOf: [prev, schema] };
      }
      out[k] = props;
    } else return undefined;
  }
  return out;
}

function intersectTypes(a: unknown, b: unknown): string | string[] | undefined {
  const ta = [a].flat().map(String);
  const tb = [b].flat().map(String);
  const both = ta.flatMap((t) => {
    if (tb.includes(t)) return [t];
    if (t === "integer" && tb.includes("number")) return ["integer"];
    if (t === "number" && tb.includes("integer")) return ["integer"];
    return [];
  });
  const unique = [...new Set(both)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : unique;
}
