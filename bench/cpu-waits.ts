import { readdirSync, readFileSync } from "node:fs";
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
  /**
   * Run-queue wait of the server's other threads (V8's GC helpers, libuv's pool), ms: not
   * subtracted from anything (they may wait while the main thread runs), but a main thread
   * that waits for them (a parallel GC pause) is slowed by it.
   */
  serverOtherThreadsWaitMs: number;
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

/** Run-queue wait of every thread of `pid` but its main thread, ns (0 when unreadable). */
function otherThreadsWait(pid: number | undefined): number {
  let wait = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`))
      if (tid !== String(pid)) wait += schedstat(`/proc/${pid}/task/${tid}/schedstat`)?.[1] ?? 0;
  } catch {
    // the process is gone
  }
  return wait;
}

/** Reads the threads before and after each request (outside the timed part). */
export class WaitMeter {
  private readonly server: string;
  private before: [number, number, number, number] | undefined;
  private readonly gcs: { start: number; end: number }[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) this.gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });

  constructor(private readonly serverPid: number | undefined) {
    this.server = `/proc/${serverPid}/task/${serverPid}/schedstat`;
    this.observer.observe({ entryTypes: ["gc"] });
  }

  start(): void {
    const s = schedstat(this.server);
    const c = schedstat("/proc/thread-self/schedstat");
    this.before = s && c ? [s[0], s[1], c[1], otherThreadsWait(this.serverPid)] : undefined;
  }

  stop(): Waits | undefined {
    const s = schedstat(this.server);
    const c = schedstat("/proc/thread-self/schedstat");
    const b = this.before;
    if (!s || !c || !b) return undefined;
    return {
      cpuWaitMs: (s[1] - b[1] + c[1] - b[2]) / 1e6,
      serverCpuMs: (s[0] - b[0]) / 1e6,
      serverOtherThreadsWaitMs: (otherThreadsWait(this.serverPid) - b[3]) / 1e6,
    };
  }

  /**
   * Which of the [start, end] spans (performance.now() ms) overlap a GC pause of this process.
   * Node hands GC entries to observers an event-loop turn or two after the pause: a few turns
   * are awaited first.
   */
  async gcOverlaps(spans: [number, number][]): Promise<boolean[]> {
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    return spans.map(([a, b]) => this.gcs.some((g) => g.start < b && g.end > a));
  }

  close(): void {
    this.observer.disconnect();
  }
}
