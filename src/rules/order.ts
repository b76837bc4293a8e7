/**
 * How an `order` expectation compares two values of a field: numbers (and numeric strings) by
 * value, other strings by code unit (ISO dates such as `start_time` sort as they read). A missing
 * or mixed pair compares equal: nothing to judge.
 */
export function compareValues(x: unknown, y: unknown): number {
  const a = Number(x);
  const b = Number(y);
  if (x !== null && y !== null && x !== "" && y !== "" && !Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
  return 0;
}
