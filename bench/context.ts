import type { BenchArgs } from "./args.ts";

/** What every scenario receives: the flags, the load shape for this mode, a log and a temp dir. */
export interface BenchContext {
  args: BenchArgs;
  /** Repeated runs per measurement (the report shows their median). */
  runs: number;
  /** Seconds per load run, and per warm-up before the first run of each target. */
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** A fresh directory removed after the run. */
  tmp: string;
  log(line: string): void;
}

export function loadShape(quick: boolean) {
  return quick
    ? { runs: 1, seconds: 1, warmupSeconds: 0.5, connections: 20 }
    : { runs: 3, seconds: 3, warmupSeconds: 1, connections: 20 };
}
