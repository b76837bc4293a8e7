/** Pure arithmetic of the bench: medians of repeated runs and ratios between targets. */

/** The median of the values (mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The q-quantile (0..1) of the values, nearest rank: the smallest value with at least q of them at or below it. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

/** a / b, or NaN when b is not a positive number (a baseline that did not run). */
export function ratio(a: number, b: number): number {
  return b > 0 && Number.isFinite(a) ? a / b : Number.NaN;
}

/** Per-request cost (ns) added by a feature, from the throughput with and without it. */
export function addedNsPerRequest(rpsWith: number, rpsWithout: number): number {
  if (!(rpsWith > 0) || !(rpsWithout > 0)) return Number.NaN;
  return (1 / rpsWith - 1 / rpsWithout) * 1e9;
}

/** "0.63×", or "n/a" for a ratio that could not be measured. */
export function formatRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}×` : "n/a";
}

/** A number rounded for a table: integers as they are, whole above 100, two or three significant digits below. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return "n/a";
  const abs = Math.abs(n);
  if (abs >= 100 || Number.isInteger(n)) return Math.round(n).toLocaleString("en-US");
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
