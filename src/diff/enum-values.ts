import { type Json, same } from "./context.ts";

/**
 * A schema with an `enum` (or `const`) admits at most those values. When both sides list the
 * same values and every one of them is admitted by both sides' other keywords alike, a new
 * `pattern`, `maxLength` or bound changes nothing any client can send or receive: the enum
 * already said more. Values are checked by the keywords below; a keyword this cannot evaluate
 * (a pattern JavaScript cannot compile) leaves the question open (undefined).
 */
export function enumDecides(b: Json, h: Json): boolean {
  const eb = valuesOf(b);
  const eh = valuesOf(h);
  if (eb === undefined || eh === undefined || !sameSet(eb, eh)) return false;
  // A format is a name, not a check run here: a changed one is left to the format rules.
  if (b.format !== h.format) return false;
  for (const v of eb) {
    const ib = admits(b, v);
    const ih = admits(h, v);
    if (ib === undefined || ih === undefined || ib !== ih) return false;
  }
  return true;
}

/** The keywords a value check covers: their changes are what `enumDecides` may settle. */
export const VALUE_KEYWORDS = [
  "type",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
];

function valuesOf(s: Json): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if ("const" in s) return [s.const];
  return undefined;
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  return a.every((x) => b.some((y) => same(x, y))) && b.every((y) => a.some((x) => same(x, y)));
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** Whether `v` satisfies the schema's value keywords; undefined when one cannot be evaluated. */
function admits(s: Json, v: unknown): boolean | undefined {
  if (s.type !== undefined) {
    const types = [s.type].flat().map(String);
    const t = typeOf(v);
    if (!types.includes(t) && !(t === "integer" && types.includes("number"))) return false;
  }
  if (typeof v === "string") {
    const length = [...v].length;
    if (typeof s.minLength === "number" && length < s.minLength) return false;
    if (typeof s.maxLength === "number" && length > s.maxLength) return false;
    if (typeof s.pattern === "string") {
      try {
        if (!new RegExp(s.pattern, "u").test(v)) return false;
      } catch {
        return undefined;
      }
    }
  }
  if (typeof v === "number" && !numberAdmitted(s, v)) return false;
  return true;
}

/** Whether a number keeps a schema's bounds and multipleOf (both spellings of the exclusive bounds). */
export function numberAdmitted(s: Json, v: number): boolean {
  if (typeof s.minimum === "number" && (v < s.minimum || (s.exclusiveMinimum === true && v === s.minimum)))
    return false;
  if (typeof s.maximum === "number" && (v > s.maximum || (s.exclusiveMaximum === true && v === s.maximum)))
    return false;
  if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) return false;
  if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) return false;
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) {
    const q = v / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) return false;
  }
  return true;
}
