import autocannon from "autocannon";
import { median } from "./stats.ts";

/** One bounded load: a few seconds of keep-alive connections against one URL (or a list of paths). */
export interface LoadOptions {
  url: string;
  /** Paths requested in turn on every connection (default: the URL's own path). */
  paths?: string[];
  connections: number;
  durationSeconds: number;
}

export interface LoadRun {
  rps: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and socket errors/timeouts: a run with any is flagged in the report. */
  non2xx: number;
  errors: number;
}

export interface LoadSummary extends LoadRun {
  runs: LoadRun[];
}

/** Runs one autocannon load in this process (the target is always another process). */
export async function load(o: LoadOptions): Promise<LoadRun> {
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.durationSeconds,
    ...(o.paths ? { requests: o.paths.map((path) => ({ method: "GET" as const, path })) } : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The median of each figure over several runs (figures taken separately, as the runs are noisy). */
export function summarize(runs: LoadRun[]): LoadSummary {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    runs,
  };
}
