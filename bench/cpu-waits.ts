import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

/**
 * Where a one-at-a-time request's wall time went besides the work itself, on Linux: the time
 * the server's and the client's main threads spent runnable but waiting for a CPU (the
 * scheduler's run-queue wait, /proc/<pid>/task/<tid>/schedstat, in ns and exact), and the
 * client's own GC pauses. On a shared 2-core machine a p99 over 150 requests is the second
 * slowest request, and one wait for a CPU taken by another process decides it; these figures
 * tell such a sample from one that was slow in the server's own work.
 */
export interface Waits {
  /** Run-queue wait of the server's and the client's main threads during the request, ms. */
  cpuWaitMs: number;
  /** The server's main thread on a CPU during the request, ms. */
  serverCpuMs: number;
}

/** [on-CPU ns, run-queue wait ns] of one thread; undefined where /proc has no schedstat. */
function schedstat(path: string): [number, number] | undefined {
  try {
    const [run, wait] = readFileSync(path, "utf8").split(" ").map(Number);
    return run === undefined || wait === undefined ? undefined : [run, wait];
  } catch {
    return undefined;
  }
}

/** Reads both threads before and after each request (outside the timed part). */
export class WaitMeter {
  private readonly server: string;
  private before: [number, number, number] | undefined;
  private readonly gcs: { start: number; end: number }[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) this.gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });

  constructor(serverPid: number | undefined) {
    this.server = `/proc/${serverPid}/task/${serverPid}/schedstat`;
    this.observer.observe({ entryTypes: ["gc"] });
  }

  start(): void {
    const s = schedstat(this.server);
    const c = schedstat("/proc/thread-self/schedstat");
    this.before = s && c ? [s[0], s[1], c[1]] : undefined;
  }

  stop(): Waits | undefined {
    const s = schedstat(this.server);
    const c = schedstat("/proc/thread-self/schedstat");
    const b = this.before;
    if (!s || !c || !b) return undefined;
    return { cpuWaitMs: (s[1] - b[1] + c[1] - b[2]) / 1e6, serverCpuMs: (s[0] - b[0]) / 1e6 };
  }

  /**
   * How many of the [start, end] spans (performance.now() ms) overlap a GC pause of this process.
   * Node hands GC entries to observers an event-loop turn or two after the pause: a few turns
   * are awaited first.
   */
  async gcOverlaps(spans: [number, number][]): Promise<number> {
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    return spans.filter(([a, b]) => this.gcs.some((g) => g.start < b && g.end > a)).length;
  }

  close(): void {
    this.observer.disconnect();
  }
}
