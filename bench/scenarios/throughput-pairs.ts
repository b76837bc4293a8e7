import { median } from "../stats.ts";

/**
 * The throughput target compares two processes on a shared 2-core machine, where what else runs
 * moves req/s by ±0.2 of the ratio within a minute. Runs of the server and of bare node:http are
 * therefore taken in adjacent pairs, in A B B A order (round 0: server then baseline, round 1:
 * baseline then server, ...), so a slow drift of the machine's load weighs on both alike, and the
 * verdict is the median over rounds of each pair's ratio: a burst of noise spoils one pair, not
 * the figure.
 */
export function pairOrder<T>(round: number, first: T, second: T): [T, T] {
  return round % 2 === 0 ? [first, second] : [second, first];
}

/** Each round's server req/s over its paired baseline req/s (rounds in the order they ran). */
export function pairedRatios(server: readonly number[], baseline: readonly number[]): number[] {
  const n = Math.min(server.length, baseline.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = server[i] as number;
    const b = baseline[i] as number;
    ratios.push(b > 0 && Number.isFinite(s) ? s / b : Number.NaN);
  }
  return ratios;
}

/** The median of the paired ratios, with their lowest and highest (NaN pairs left out). */
export function pairedSummary(ratios: readonly number[]): { median: number; min: number; max: number } {
  const finite = ratios.filter(Number.isFinite);
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}
