import { type At, brief, type Collector, type Direction, down, type Json, same, show } from "./context.ts";

/**
 * The value constraints of a schema compared by direction: numeric bounds (with OAS 3.0 and 3.1
 * exclusive forms brought to one), lengths and counts, multipleOf, uniqueItems, `not`, and the
 * numeric formats that constrain nothing the bounds allow. Narrowing a request or widening a
 * response is what breaks clients.
 */

/** `field: ` before a message, when the walk knows the field. */
function name(at: At): string {
  return at.field ? `${at.field}: ` : "";
}

export function lowerBounds(): string[] {
  return ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
}
export function upperBounds(): string[] {
  return ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
}

/** The types a schema allows, or undefined for "any". `nullable: true` (OAS 3.0) counts as null. */
export function typesOf(s: Json): Set<string> | undefined {
  const t = s.type;
  if (t === undefined) return undefined;
  const set = new Set(Array.isArray(t) ? t.map(String) : [String(t)]);
  if (s.nullable === true) set.add("null");
  return set;
}

/** The rule of a bound that moved: narrowed or widened, on the request or the response side. */
const boundRule = (dir: Direction, narrowed: boolean) =>
  `${dir === "request" ? "request" : "response"}-bound-${narrowed ? "narrowed" : "widened"}` as const;

export function compareBounds(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const report = (narrowed: boolean, key: string, side: "base" | "head", change?: string) => {
    const rule = boundRule(dir, narrowed);
    c.add(rule, down(at, key), `${name(at)}${change ?? `${key} ${show(b[key])} → ${show(h[key])}`}`, side);
  };
  for (const lower of [true, false]) {
    const vb = numericBound(b, lower);
    const vh = numericBound(h, lower);
    if (vb?.value === vh?.value && vb?.exclusive === vh?.exclusive) continue;
    const keys = lower ? ["minimum", "exclusiveMinimum"] : ["maximum", "exclusiveMaximum"];
    const key = keys.find((k) => !same(b[k], h[k])) ?? (keys[0] as string);
    // A bound appearing narrows; disappearing widens; otherwise the tighter one wins.
    const narrowed = vb === undefined || (vh !== undefined && tighter(vh, vb, lower));
    report(narrowed, key, vh === undefined ? "base" : "head");
  }
  for (const [keys, lower] of [
    [lowerBounds().filter((k) => !k.includes("imum")), true],
    [upperBounds().filter((k) => !k.includes("imum")), false],
  ] as const) {
    for (const key of keys) {
      const vb = typeof b[key] === "number" ? (b[key] as number) : undefined;
      const vh = typeof h[key] === "number" ? (h[key] as number) : undefined;
      if (vb === vh) continue;
      const narrowed = vb === undefined || (vh !== undefined && (lower ? vh > vb : vh < vb));
      report(narrowed, key, vh === undefined ? "base" : "head");
    }
  }
  // multipleOf: every integer is a multiple of 1, so on integers an absent one is 1.
  // Judged only when one side states it (a type change alone is the type rules' to report).
  const mb = num(b.multipleOf) ?? (integerOnly(b) ? 1 : undefined);
  const mh = num(h.multipleOf) ?? (integerOnly(h) ? 1 : undefined);
  if (mb !== mh && (b.multipleOf !== undefined || h.multipleOf !== undefined)) {
    const isWhole = (x: number) => Math.abs(x - Math.round(x)) < 1e-9;
    const refusesSome = mh !== undefined && (mb === undefined || !isWhole(mb / mh));
    const admitsOther = mb !== undefined && (mh === undefined || !isWhole(mh / mb));
    report(dir === "request" ? refusesSome : !admitsOther, "multipleOf", mh === undefined ? "base" : "head");
  }
  if ((b.uniqueItems === true) !== (h.uniqueItems === true))
    report(h.uniqueItems === true, "uniqueItems", h.uniqueItems === true ? "head" : "base");
}

const num = (v: unknown) => (typeof v === "number" ? v : undefined);

interface Bound {
  value: number;
  exclusive: boolean;
}

/** Whether bound `x` admits fewer values than `y` (on the same side). */
function tighter(x: Bound, y: Bound, lower: boolean): boolean {
  if (x.value !== y.value) return lower ? x.value > y.value : x.value < y.value;
  return x.exclusive && !y.exclusive;
}

/** Only integers (and maybe null) are allowed. */
function integerOnly(s: Json): boolean {
  const t = typesOf(s);
  return t !== undefined && [...t].every((x) => x === "integer" || x === "null") && t.has("integer");
}

/**
 * The effective numeric bound of one side: `minimum`, OAS 3.1's numeric `exclusiveMinimum` and
 * OAS 3.0's boolean one, whichever is tightest. On integers `> 0` is `>= 1`, so equivalent
 * spellings compare equal.
 */
function numericBound(s: Json, lower: boolean): Bound | undefined {
  const inc = num(s[lower ? "minimum" : "maximum"]);
  const exc = s[lower ? "exclusiveMinimum" : "exclusiveMaximum"];
  let bound: Bound | undefined = inc === undefined ? undefined : { value: inc, exclusive: exc === true };
  if (typeof exc === "number") {
    const e = { value: exc, exclusive: true };
    if (bound === undefined || tighter(e, bound, lower)) bound = e;
  }
  if (bound === undefined || !integerOnly(s)) return bound;
  const { value, exclusive } = bound;
  if (lower) return { value: exclusive ? Math.floor(value) + 1 : Math.ceil(value), exclusive: false };
  return { value: exclusive ? Math.ceil(value) - 1 : Math.floor(value), exclusive: false };
}

/** What a numeric format admits: float and double any number, int32/int64 their ranges. */
const FORMAT_RANGE: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
  float: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
  double: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
};

/** A numeric format that refuses no value the schema's bounds allow: a note, not a constraint. */
export function formatAdmitsAll(format: unknown, s: Json): boolean {
  const range = typeof format === "string" ? FORMAT_RANGE[format] : undefined;
  if (range === undefined) return false;
  const lo = numericBound(s, true)?.value ?? Number.NEGATIVE_INFINITY;
  const hi = numericBound(s, false)?.value ?? Number.POSITIVE_INFINITY;
  return lo >= range[0] && hi <= range[1];
}

/**
 * `not` excludes values: added it refuses some (a request narrowed, a response narrowed), removed
 * it admits them again. A `not` rewritten cannot be ordered without proving inclusion: a reviewer
 * looks.
 */
export function compareNot(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  if (same(b.not, h.not)) return;
  const where = down(at, "not");
  const msg = `${name(at)}not ${brief(b.not)} → ${brief(h.not)}`;
  if (b.not !== undefined && h.not !== undefined) c.add("unclassified-change", where, msg);
  else {
    const narrowed = h.not !== undefined;
    const rule = boundRule(dir, narrowed);
    c.add(rule, where, msg, narrowed ? "head" : "base");
  }
}
