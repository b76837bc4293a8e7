/**
 * Exact decimal comparison of prices (info.description "Query values"): a bound as written
 * (`^[0-9]+(\.[0-9]+)?$`) against a price as the answer writes it (JavaScript's shortest
 * round-trip text of the number), never as binary floating point, so `mip=19.90000000000000000001`
 * excludes a price of 19.9 that Number() would round it to.
 */

/** The decimal text of a finite number as JavaScript writes it, without an exponent. */
export function decimalText(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = "", int = "", frac = "", exp = "0"] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Compares two non-negative decimals written `digits[.digits]`: -1, 0 or 1, exactly. */
export function compareDecimal(a: string, b: string): number {
  const [ai = "", af = ""] = a.split(".");
  const [bi = "", bf = ""] = b.split(".");
  const [ia, ib] = [ai.replace(/^0+/, ""), bi.replace(/^0+/, "")];
  if (ia.length !== ib.length) return ia.length < ib.length ? -1 : 1;
  if (ia !== ib) return ia < ib ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const [fa, fb] = [af.padEnd(width, "0"), bf.padEnd(width, "0")];
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** The neighbouring double of a non-negative one, upwards or downwards. */
function nextDouble(d: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  view.setBigUint64(0, view.getBigUint64(0) + (up ? 1n : -1n));
  return view.getFloat64(0);
}

/**
 * The number a store comparing binary doubles can use for a bound written in decimal: the least
 * double whose decimal text is at least `raw` (a minimum), or the greatest at most `raw` (a
 * maximum). Comparing a stored price with it in binary gives the exact decimal answer.
 */
export function priceBound(raw: string, side: "min" | "max"): number {
  const nearest = Number(raw);
  const c = compareDecimal(decimalText(nearest), raw);
  if (side === "min") return c >= 0 ? nearest : nextDouble(nearest, true);
  return c <= 0 || nearest === 0 ? nearest : nextDouble(nearest, false);
}
