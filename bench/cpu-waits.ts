import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { schedstat } from "./cpu-time.ts";

/**
 * Where a one-at-a-time request's wall time went besides the work itself, on Linux: the time
 * the server's and the client's main threads spent runnable but waiting for a CPU (the
 * scheduler's run-queue wait, /proc/<pid>/task/<tid>/schedstat, in ns and exact), what the
 * server's other threads did (V8's workers run the parallel and concurrent parts of its GC), what
 * the whole machine did (/proc/stat, steal included, and /proc/pressure/cpu), and the client's
 * own GC pauses. On a shared 2-core machine a p99 over 150 requests is the second slowest
 * request, and one wait for a CPU taken by another process decides it; these figures tell such
 * a sample from one that was slow in the server's own work, and name who had the CPU.
 */
export interface Waits {
  /** Run-queue wait of the server's and the client's main threads during the request, ms (the two summed). */
  cpuWaitMs: number;
  /** Of it, the server's main thread, ms. */
  serverWaitMs: number;
  /** Of it, the client's main thread, ms. */
  clientWaitMs: number;
  /** The server's main thread on a CPU during the request, ms. */
  serverCpuMs: number;
  /**
   * The client's main thread on a CPU during the request, ms (writing the request, reading the
   * answer). A running thread reading its own schedstat sees the kernel's figure as of its last
   * accounting (a tick or a switch): the meter's own reads just before the request are in it too.
   */
  clientCpuMs: number;
  /**
   * Run-queue wait of the server's other threads (V8's workers, libuv's pool), ms: not
   * subtracted from anything (they may wait while the main thread runs), but a main thread
   * that waits for them (a parallel GC pause) is slowed by it.
   */
  serverOtherThreadsWaitMs: number;
  /** The server's other threads on a CPU, ms. */
  serverOtherThreadsCpuMs: number;
  /**
   * Of the other threads, V8's platform workers (named "V8Worker": the parallel scavenge, concurrent
   * marking and sweeping, background compilation): on a CPU and waiting for one, ms.
   */
  serverV8WorkersCpuMs: number;
  serverV8WorkersWaitMs: number;
  /**
   * The whole machine over the span, from /proc/stat, ms of CPU summed over every CPU: busy (user,
   * nice, system, irq, softirq), stolen by the hypervisor, idle (idle and iowait). The kernel counts
   * in ticks (10 ms), so one sample's figures are coarse; summed over many samples they are not.
   */
  machineBusyMs?: number;
  machineStealMs?: number;
  machineIdleMs?: number;
  /** /proc/pressure/cpu "some": wall time in which at least one runnable task of the machine had no CPU, ms (µs resolution). */
  cpuPressureMs?: number;
}

interface OtherThreads {
  cpu: number;
  wait: number;
  v8Cpu: number;
  v8Wait: number;
}

const threadNames = new Map<string, string>();

/** Thread name (/proc/.../comm), read once per thread. */
function threadName(pid: number | undefined, tid: string): string {
  const key = `${pid}/${tid}`;
  let name = threadNames.get(key);
  if (name === undefined) {
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    } catch {
      name = "";
    }
    threadNames.set(key, name);
  }
  return name;
}

/** CPU time and run-queue wait of every thread of `pid` but its main thread, ns (0 when unreadable). */
function otherThreads(pid: number | undefined): OtherThreads {
  const out: OtherThreads = { cpu: 0, wait: 0, v8Cpu: 0, v8Wait: 0 };
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (tid === String(pid)) continue;
      const s = schedstat(`/proc/${pid}/task/${tid}/schedstat`);
      if (!s) continue;
      out.cpu += s[0];
      out.wait += s[1];
      if (threadName(pid, tid) === "V8Worker") {
        out.v8Cpu += s[0];
        out.v8Wait += s[1];
      }
    }
  } catch {
    // the process is gone
  }
  return out;
}

let msPerTick: number | undefined;

/** The machine's CPU ticks from /proc/stat's first line: [busy, steal, idle] in ms, or undefined. */
export function machineCpuMs(): [number, number, number] | undefined {
  try {
    msPerTick ??= 1000 / (Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);
    const line = readFileSync("/proc/stat", "utf8").slice(0, 256).split("\n")[0] ?? "";
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0);
    if (!Number.isFinite(busy) || steal === undefined) return undefined;
    return [busy * msPerTick, steal * msPerTick, ((idle ?? 0) + (iowait ?? 0)) * msPerTick];
  } catch {
    return undefined;
  }
}

/** /proc/pressure/cpu "some ... total=<µs>" in ms, or undefined (no PSI). */
function cpuPressureMs(): number | undefined {
  try {
    const total = /^some .*total=(\d+)/m.exec(readFileSync("/proc/pressure/cpu", "utf8"))?.[1];
    return total === undefined ? undefined : Number(total) / 1000;
  } catch {
    return undefined;
  }
}

/** The calling thread: the client's main thread, as the meter runs in the client. */
const CLIENT = "/proc/thread-self/schedstat";

interface Reading {
  server: [number, number];
  client: [number, number];
  others: OtherThreads;
  machine: [number, number, number] | undefined;
  pressure: number | undefined;
}

/** Reads the threads and the machine before and after each request (outside the timed part). */
export class WaitMeter {
  private readonly server: string;
  private readonly serverPid: number | undefined;
  private before: Reading | undefined;
  private readonly gcs: { start: number; end: number }[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) this.gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });

  constructor(serverPid: number | undefined) {
    this.serverPid = serverPid;
    this.server = `/proc/${serverPid}/task/${serverPid}/schedstat`;
    this.observer.observe({ entryTypes: ["gc"] });
  }

  /**
   * Reads everything, the two main threads innermost: before a request they are read last, after
   * it first, so that the reads of the rest do not fall inside their spans.
   */
  private read(when: "before" | "after"): Reading | undefined {
    const outer = () => ({
      machine: machineCpuMs(),
      pressure: cpuPressureMs(),
      others: otherThreads(this.serverPid),
    });
    const before = when === "before" ? outer() : undefined;
    const first = schedstat(when === "before" ? this.server : CLIENT);
    const second = schedstat(when === "before" ? CLIENT : this.server);
    const after = before ?? outer();
    if (!first || !second) return undefined;
    const [server, client] = when === "before" ? [first, second] : [second, first];
    return { server, client, ...after };
  }

  start(): void {
    this.before = this.read("before");
  }

  stop(): Waits | undefined {
    const b = this.before;
    const a = this.read("after");
    if (!a || !b) return undefined;
    const ms = (ns: number) => ns / 1e6;
    const serverWaitMs = ms(a.server[1] - b.server[1]);
    const clientWaitMs = ms(a.client[1] - b.client[1]);
    const machine =
      a.machine && b.machine
        ? {
            machineBusyMs: a.machine[0] - b.machine[0],
            machineStealMs: a.machine[1] - b.machine[1],
            machineIdleMs: a.machine[2] - b.machine[2],
          }
        : {};
    return {
      cpuWaitMs: serverWaitMs + clientWaitMs,
      serverWaitMs,
      clientWaitMs,
      serverCpuMs: ms(a.server[0] - b.server[0]),
      clientCpuMs: ms(a.client[0] - b.client[0]),
      serverOtherThreadsWaitMs: ms(a.others.wait - b.others.wait),
      serverOtherThreadsCpuMs: ms(a.others.cpu - b.others.cpu),
      serverV8WorkersCpuMs: ms(a.others.v8Cpu - b.others.v8Cpu),
      serverV8WorkersWaitMs: ms(a.others.v8Wait - b.others.v8Wait),
      ...machine,
      ...(a.pressure !== undefined && b.pressure !== undefined
        ? { cpuPressureMs: a.pressure - b.pressure }
        : {}),
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

export interface ProcessCpu {
  pid: number;
  /** The command line, shortened. */
  command: string;
  cpuMs: number;
}

/** CPU time (all threads, user + system) of every process, ms, from /proc/<pid>/stat (ticks). */
export function processCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  msPerTick ??= 1000 / (Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const p of pids) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      out.set(Number(p), (Number(fields[11]) + Number(fields[12])) * msPerTick);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The processes that used the most CPU between two processCpuMs() readings, but those in `skip`. */
export function topProcesses(
  before: Map<number, number>,
  after: Map<number, number>,
  skip: number[],
  count = 3,
): ProcessCpu[] {
  const used: { pid: number; cpuMs: number }[] = [];
  for (const [pid, ms] of after)
    if (!skip.includes(pid)) used.push({ pid, cpuMs: ms - (before.get(pid) ?? 0) });
  return used
    .filter((u) => u.cpuMs > 0)
    .sort((x, y) => y.cpuMs - x.cpuMs)
    .slice(0, count)
    .map((u) => ({ ...u, command: commandOf(u.pid) }));
}

/** A process's command line, shortened: for node, from its script on (loader flags and paths left out). */
function commandOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const script = args.findIndex(
      (a, i) => i > 0 && /\.(ts|mts|js|mjs|cjs)$/.test(a) && !args[i - 1]?.startsWith("--"),
    );
    const shown = args[0]?.endsWith("node") && script > 0 ? ["node", ...args.slice(script)] : args;
    return shown
      .map((a) => a.replace(/^\/work\/\S*?([^/]+\/[^/]+)$/, "$1"))
      .join(" ")
      .slice(0, 60);
  } catch {
    return "?";
  }
}
