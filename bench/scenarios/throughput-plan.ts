/**
 * What the throughput scenario measures and for how long: the endpoints, the targets beside the
 * reference server, the run lengths, and the record its runs fill (throughput.ts measures,
 * throughput-report.ts reports).
 */
import type { BenchContext } from "../context.ts";
import type { LoadRun } from "../load.ts";
import type { Child } from "../procs.ts";

/** The measured requests: fixed, so every run and every target answers the same thing. */
export const ENDPOINTS = [
  { id: "rank-20", path: "/api/v1/rank?act=ershisixiaoshi&limit=20" },
  { id: "rank-300", path: "/api/v1/rank?act=ershisixiaoshi&limit=300" },
  { id: "feed", path: "/api/v1/feed?cate=all&limit=20" },
  { id: "search", path: `/api/v1/search?q=${encodeURIComponent("京东")}&limit=20` },
  { id: "meta", path: "/api/v1/meta" },
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];
export type EndpointId = Endpoint["id"];

/** Where the ratio targets of issue 7 apply. */
// Issue 25: every endpoint of the throughput scenario within 0.85 of bare node:http answering the
// same bytes (it was 0.5 on rank-20 and meta).
export const CEILING_RATIO = 0.85;
export const CEILING_TARGET: EndpointId[] = ["rank-20", "feed", "search", "meta"];

export interface Target {
  name: string;
  label: string;
  start: () => Promise<Child>;
  /** Endpoints measured on this target (the secondary targets only where they answer a question). */
  only?: EndpointId[];
}

/** The endpoints a target is measured on. */
export const endpointsOf = (t: Target) => ENDPOINTS.filter((e) => !t.only || t.only.includes(e.id));

/** The rate limit stays on, raised; a 1 s window keeps the one client's timestamp list short. */
export const RAISED_LIMIT = { limit: 1_000_000_000, windowSeconds: 1 };

/**
 * The server and bare node:http run in adjacent pairs, A B B A (throughput-pairs.ts), more often
 * and shorter than the other targets: rounds of the pair, and seconds per run. The other targets
 * run ctx.runs times, spread over the rounds.
 */
export const pairRounds = (ctx: BenchContext) => ctx.runs * 2 + 2;
export const pairSeconds = (ctx: BenchContext) => Math.min(ctx.seconds, 2);
/** Each process's first load, on all its endpoints in turn, before the per-endpoint warm-ups. */
export const processWarmupSeconds = (ctx: BenchContext) => ctx.warmupSeconds * 3;

/** What the runs measured, by endpoint id, then target name. */
export interface Measurements {
  runs: Record<string, Record<string, LoadRun[]>>;
  /** CPU µs per answered request of each target's process, per run (NaN without /proc). */
  cpuUs: Record<string, Record<string, number[]>>;
  /** The same split by thread, µs per request per run: [main thread, the other threads]. */
  threadUs: Record<string, Record<string, [number, number][]>>;
  /** The body's size in bytes, as the server and as Prism answer it. */
  bodyBytes: Record<string, Record<string, number>>;
}

export const noMeasurements = (): Measurements => ({ runs: {}, cpuUs: {}, threadUs: {}, bodyBytes: {} });

/** Appends one run of a target on an endpoint. */
export function record(
  m: Measurements,
  endpoint: string,
  target: string,
  run: LoadRun,
  cpuUsPerRequest: number,
  threadUsPerRequest: [number, number],
): void {
  const append = <T>(table: Record<string, Record<string, T[]>>, value: T) => {
    const byTarget = table[endpoint] ?? {};
    table[endpoint] = byTarget;
    byTarget[target] = [...(byTarget[target] ?? []), value];
  };
  append(m.runs, run);
  append(m.cpuUs, cpuUsPerRequest);
  append(m.threadUs, threadUsPerRequest);
}
