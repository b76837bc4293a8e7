/**
 * Child-process entry: the search scenario's timing client (started by search-client-process.ts
 * with --expose-gc, --single-threaded-gc, --no-incremental-marking and --no-memory-reducer, on Node's own type stripping: this file and what it
 * imports use no enums and no parameter properties). It shares nothing with the bench process, whose
 * heap (every scenario's figures, the query lists, the report) made its GC pauses long and
 * unpredictable, and it allocates almost nothing per request (raw-http.ts). Its own collection is
 * settled outside the timed part: a full gc() before each task, a young-generation one before each
 * request; single-threaded GC, so no helper thread of the client takes a CPU from the server.
 * Samples go back over IPC only when a task is done. Timing: process.hrtime.bigint().
 */
import { performance } from "node:perf_hooks";
import { type ProcessCpu, processCpuMs, topProcesses, WaitMeter, type Waits } from "./cpu-waits.ts";
import { RawConnection, rawGet } from "./raw-http.ts";

type Gc = (options?: { type?: "minor" | "major"; execution?: "sync" | "async" }) => void;
const gc = (globalThis as { gc?: Gc }).gc;
if (!gc) throw new Error("search-client.ts needs node --expose-gc");

/** Each path once, in order, with the CPU waits around each request. */
export interface OnceTask {
  mode: "once";
  url: string;
  paths: string[];
  serverPid?: number;
}

/** The paths in turn for durationMs (answers not kept). */
export interface RepeatTask {
  mode: "repeat";
  url: string;
  paths: string[];
  durationMs: number;
}

export type ClientTask = (OnceTask | RepeatTask) & { id: number };

export interface OnceResult {
  samples: number[];
  statuses: number[];
  /** meta.total of each answer (-1 when absent). */
  totals: number[];
  /** One per sample, or empty where /proc cannot be read. */
  waits: Waits[];
  /** Per sample: whether a GC pause of this client overlapped it. */
  clientGc: boolean[];
  /** Per sample: [start, end] in epoch ms (performance.timeOrigin based), to match the server's GC pauses against. */
  spans: [number, number][];
  /** The processes (besides the server and this client) that used the most CPU over the whole task. */
  topProcesses: ProcessCpu[];
}

export interface RepeatResult {
  samples: number[];
  non2xx: number;
}

export type ClientReply =
  | { id: number; ok: true; result: OnceResult | RepeatResult }
  | { id: number; ok: false; error: string };

const host = (url: string) => new URL(url).host;

async function once(task: OnceTask): Promise<OnceResult> {
  const requests = task.paths.map((p) => rawGet(host(task.url), p));
  const conn = await RawConnection.open(task.url, { keep: true });
  const meter = new WaitMeter(task.serverPid);
  const n = requests.length;
  const samples = new Float64Array(n);
  const spans = new Float64Array(2 * n);
  const waits: (Waits | undefined)[] = new Array(n).fill(undefined);
  const cpuBefore = processCpuMs();
  try {
    gc?.({ type: "major" });
    for (let i = 0; i < n; i++) {
      gc?.({ type: "minor" });
      meter.start();
      spans[2 * i] = performance.now();
      const t0 = process.hrtime.bigint();
      const t1 = await conn.send(requests[i] as Buffer);
      samples[i] = Number(t1 - t0) / 1e6;
      spans[2 * i + 1] = performance.now();
      waits[i] = meter.stop();
    }
    const cpuAfter = processCpuMs();
    const statuses: number[] = [];
    const totals: number[] = [];
    for (let i = 0; i < conn.count; i++) {
      const r = conn.response(i);
      statuses.push(r.status);
      let total = -1;
      try {
        total = (JSON.parse(r.body.toString("utf8")) as { meta?: { total?: number } }).meta?.total ?? -1;
      } catch {
        // not JSON: counted as a non-2xx or a wrong total by the caller
      }
      totals.push(total);
    }
    const local = [...samples].map((_, i): [number, number] => [
      spans[2 * i] as number,
      spans[2 * i + 1] as number,
    ]);
    const clientGc = await meter.gcOverlaps(local);
    const measured = waits.filter((w): w is Waits => w !== undefined);
    return {
      samples: [...samples],
      statuses,
      totals,
      waits: measured.length === n ? measured : [],
      clientGc,
      spans: local.map(([a, b]): [number, number] => [
        performance.timeOrigin + a,
        performance.timeOrigin + b,
      ]),
      // The bench process itself is named as such: another helper's bench has the same command line.
      topProcesses: topProcesses(cpuBefore, cpuAfter, [process.pid, task.serverPid ?? -1]).map((p) =>
        p.pid === process.ppid ? { ...p, command: `this bench: ${p.command}` } : p,
      ),
    };
  } finally {
    meter.close();
    conn.close();
  }
}

async function repeat(task: RepeatTask): Promise<RepeatResult> {
  const requests = task.paths.map((p) => rawGet(host(task.url), p));
  const conn = await RawConnection.open(task.url, { keep: false, arenaBytes: 1 << 20 });
  const samples: number[] = [];
  let non2xx = 0;
  try {
    gc?.({ type: "major" });
    const deadline = performance.now() + task.durationMs;
    for (let i = 0; performance.now() < deadline; i++) {
      gc?.({ type: "minor" });
      const t0 = process.hrtime.bigint();
      const t1 = await conn.send(requests[i % requests.length] as Buffer);
      samples.push(Number(t1 - t0) / 1e6);
      if (conn.status < 200 || conn.status > 299) non2xx++;
    }
  } finally {
    conn.close();
  }
  return { samples, non2xx };
}

process.on("message", (task: ClientTask) => {
  const run = task.mode === "once" ? once(task) : repeat(task);
  run.then(
    (result) => process.send?.({ id: task.id, ok: true, result } satisfies ClientReply),
    (err: unknown) =>
      process.send?.({
        id: task.id,
        ok: false,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      } satisfies ClientReply),
  );
});
process.send?.({ ready: true });
// The bench went away (or is done with this client): nothing else keeps this process useful.
process.once("disconnect", () => process.exit(0));
