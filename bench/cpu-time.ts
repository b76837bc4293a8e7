import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

/**
 * CPU time (user + system, every thread) a process has used so far, in seconds, from
 * /proc/<pid>/stat; NaN where there is no /proc. On a shared machine a server's req/s moves with
 * what else runs, its CPU time per request much less: the throughput scenario shows both.
 */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** [on-CPU ns, run-queue wait ns] of one thread; undefined where /proc has no schedstat. */
export function schedstat(path: string): [number, number] | undefined {
  try {
    const [run, wait] = readFileSync(path, "utf8").split(" ").map(Number);
    return run === undefined || wait === undefined ? undefined : [run, wait];
  } catch {
    return undefined;
  }
}

/**
 * On-CPU time of a process's main thread and of its other threads together (V8's workers: the
 * parallel scavenge, concurrent marking, background compilation; libuv's pool), seconds, exact
 * (schedstat, ns); NaN without /proc. Tells whether a server's extra CPU per request is its own
 * JavaScript and I/O or the collector beside it.
 */
export function threadCpuSeconds(pid: number | undefined): { main: number; others: number } {
  const none = { main: Number.NaN, others: Number.NaN };
  if (pid === undefined) return none;
  try {
    let main = Number.NaN;
    let others = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const onCpuNs = schedstat(`/proc/${pid}/task/${tid}/schedstat`)?.[0] ?? 0;
      if (tid === String(pid)) main = onCpuNs / 1e9;
      else others += onCpuNs / 1e9;
    }
    return { main, others };
  } catch {
    return none;
  }
}
