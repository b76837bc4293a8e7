import { isObject, type Json, obj, same } from "./context.ts";

/** A query parameter as the operation declares it (dereferenced). */
export interface QueryParam {
  required: boolean;
  schema: Json;
}

/** The query parameters of an operation, path-item ones overridden by the operation's. */
export function queryParams(item: Json, op: Json): Map<string, QueryParam> {
  const out = new Map<string, QueryParam>();
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list.filter(isObject)) {
      if (p.in === "query") out.set(String(p.name), { required: p.required === true, schema: obj(p.schema) });
    }
  }
  return out;
}

/**
 * Whether every request a rule's `when` matches was already refused by a parameter's schema:
 * one query predicate that no value the schema admits can satisfy (`limit > 300` where the
 * maximum is 300). Comparisons read the effective value and hold vacuously on an absent
 * parameter (openapi/README.md), so the parameter must be required or have a default that
 * fails the predicate too. Anything else (operands naming another parameter, `anyOf`,
 * credentials) is not proved.
 */
export function refusedBySchema(when: unknown, params: Map<string, QueryParam>): boolean {
  if (!isObject(when) || !isObject(when.query)) return false;
  if (Object.keys(when).some((k) => k !== "query")) return false;
  return Object.entries(when.query).some(([name, pred]) => {
    const p = params.get(name);
    if (!p || !isObject(pred)) return false;
    const never = Object.entries(pred).some(([op, operand]) => neverHolds(op, operand, p.schema));
    if (!never) return false;
    if (p.required) return true;
    const d = p.schema.default;
    return d !== undefined && Object.entries(pred).some(([op, operand]) => !holds(op, operand, d));
  });
}

const num = (v: unknown) => (typeof v === "number" ? v : undefined);

/** The predicate holds for no value the schema admits. */
function neverHolds(op: string, operand: unknown, s: Json): boolean {
  const max = num(s.maximum);
  const min = num(s.minimum);
  const n = num(operand);
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  if (n !== undefined && max !== undefined && ((op === "gt" && max <= n) || (op === "gte" && max < n)))
    return true;
  if (n !== undefined && min !== undefined && ((op === "lt" && min >= n) || (op === "lte" && min > n)))
    return true;
  if (values === undefined) return false;
  const listed = (v: unknown) => values.some((x) => same(String(x), String(v)));
  if (op === "eq") return !listed(operand);
  if (op === "in" && Array.isArray(operand)) return !operand.some(listed);
  return false;
}

/** The predicate on a known effective value (the default). */
function holds(op: string, operand: unknown, v: unknown): boolean {
  const [a, b] = [Number(v), Number(operand)];
  if (op === "gt") return a > b;
  if (op === "gte") return a >= b;
  if (op === "lt") return a < b;
  if (op === "lte") return a <= b;
  if (op === "eq") return String(v) === String(operand);
  if (op === "in" && Array.isArray(operand)) return operand.some((x) => String(x) === String(v));
  return true;
}
