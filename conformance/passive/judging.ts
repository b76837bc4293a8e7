/**
 * Where the proxy's exchanges are judged: in the proxy's own thread (inline: tests, small
 * recordings) or in a worker thread, so that forwarding never waits for judging (a sequential
 * client's next request would otherwise wait for the judging of its previous one). Either way,
 * exchanges are judged one at a time in the order they completed, and the verdict is data. The
 * body comes as the bytes the proxy kept and is decoded where it is judged: to the worker its
 * buffer is transferred (moved, not copied), so the forwarding thread holds nothing of a body
 * once the answer is complete and never turns one into a string.
 */
import { Worker } from "node:worker_threads";
import type { RunReport } from "../runner/report.ts";
import { type TrafficBytes, trafficOfBytes } from "./body.ts";
import type {
  LiveFinding,
  Observed,
  PassiveSetupOptions,
  TrafficJudge,
  TrafficJudgeOptions,
} from "./judge-traffic.ts";
import { OptionError } from "./option-error.ts";

/** A finding as it leaves the judge: no exchange object, and whether it is about this exchange. */
export interface FindingRecord extends Omit<LiveFinding, "exchange"> {
  /** About the exchange just judged (a comparison may name an earlier one). */
  own: boolean;
}

export interface TrafficVerdict {
  skipped?: string;
  findings: FindingRecord[];
}

export interface Judging {
  observe(exchange: TrafficBytes): Promise<TrafficVerdict>;
  /** Counts an exchange that could not be judged at all. */
  skip(reason: string): void;
  report(notes?: string[]): Promise<RunReport>;
  close(): Promise<void>;
}

/** A judge's view of one exchange as data. */
export function verdictOf(observed: Observed): TrafficVerdict {
  return {
    ...(observed.skipped ? { skipped: observed.skipped } : {}),
    findings: observed.findings.map(({ exchange, ...f }) => ({ ...f, own: exchange === observed.exchange })),
  };
}

export function inlineJudging(judge: TrafficJudge): Judging {
  return {
    observe: async (exchange) => verdictOf(judge.observe(trafficOfBytes(exchange))),
    skip: (reason) => judge.skip(reason),
    report: async (notes) => judge.report(notes),
    close: async () => {},
  };
}

/** What the worker is started with. */
export interface WorkerInit {
  setup: PassiveSetupOptions;
  judge: TrafficJudgeOptions;
}

type Ask =
  | { kind: "observe"; exchange: TrafficBytes }
  | { kind: "skip"; reason: string }
  | { kind: "report"; notes: string[] };

export type WorkerRequest = Ask & { id: number };

export type WorkerAnswer =
  | { id: number; kind: "ready" }
  | { id: number; kind: "verdict"; verdict: TrafficVerdict }
  | { id: number; kind: "report"; report: RunReport }
  | { id: number; kind: "error"; message: string }
  /** The worker could not set up (a wrong --only or --skip, an unreadable spec): said once, at start. */
  | { id: number; kind: "refused"; message: string };

/**
 * Exchanges waiting for the worker, at most: past it they are not judged (memory stays bounded;
 * counted in the report's notJudged). A waiting exchange is held once, outside both heaps: its
 * headers serialized (about 1 KB) and its body's bytes, moved into the worker's message queue.
 * Deep enough to take a few seconds of a burst the forwarding passes faster than the judge judges
 * (judging costs more CPU than forwarding), and no deeper: a full backlog is RSS (bench soak).
 */
export const BACKLOG = { exchanges: 1024, bytes: 8 * 1024 * 1024 };

/** What a waiting exchange holds besides its body's bytes: about 1 KB of serialized headers. */
export const HEADERS_BYTES = 1024;

/**
 * The worker's V8 heap, at most. What it keeps is bounded (pairs.ts, the backlog above), but V8
 * sizes a heap by the machine's memory and collects old garbage late: without a limit the
 * worker's heap grew to hundreds of MB of garbage under steady traffic (bench soak).
 */
export const WORKER_HEAP = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/** ".ts" in a checkout (run through tsx), ".js" in the built package. */
const EXT = import.meta.url.slice(import.meta.url.lastIndexOf("."));

export async function workerJudging(init: WorkerInit, backlog = BACKLOG): Promise<Judging> {
  const worker = new Worker(new URL(`./judge-worker${EXT}`, import.meta.url), {
    workerData: init,
    ...(EXT === ".ts" ? { execArgv: ["--import", "tsx"] } : {}),
    resourceLimits: WORKER_HEAP,
  });
  const pending = new Map<number, { resolve(a: WorkerAnswer): void; reject(e: Error): void }>();
  let next = 1;
  let waiting = 0;
  let waitingBytes = 0;
  let failed: Error | undefined;
  const fail = (err: Error) => {
    failed = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on("message", (answer: WorkerAnswer) => {
    const p = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.kind === "error") p?.reject(new Error(answer.message));
    else if (answer.kind === "refused") p?.reject(new OptionError(answer.message));
    else p?.resolve(answer);
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the judging worker exited (${code})`)));
  const ask = (request: Ask) =>
    new Promise<WorkerAnswer>((resolve, reject) => {
      if (failed) return reject(failed);
      const id = next++;
      pending.set(id, { resolve, reject });
      const kept = request.kind === "observe" ? request.exchange.kept : undefined;
      // The body's buffer is moved, not copied (BodyTap.take gives each its own).
      worker.postMessage({ ...request, id }, kept && "bytes" in kept ? [kept.bytes.buffer] : []);
    });
  await new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject });
  });
  return {
    // Not async: nothing of the exchange is kept here while it waits (only its size, to count).
    observe(exchange) {
      const kept = exchange.kept;
      const bytes = HEADERS_BYTES + (kept && "bytes" in kept ? kept.bytes.byteLength : 0);
      if (waiting >= backlog.exchanges || waitingBytes + bytes > backlog.bytes) {
        const why = "the judge fell behind the traffic (exchanges waiting at the bound)";
        // A worker that died rejects it: that costs the count, never the proxy.
        void ask({ kind: "skip", reason: why }).catch(() => {});
        return Promise.resolve({ skipped: why, findings: [] });
      }
      waiting++;
      waitingBytes += bytes;
      return ask({ kind: "observe", exchange })
        .then((answer): TrafficVerdict => (answer.kind === "verdict" ? answer.verdict : { findings: [] }))
        .finally(() => {
          waiting--;
          waitingBytes -= bytes;
        });
    },
    skip: (reason) => void ask({ kind: "skip", reason }).catch(() => {}),
    async report(notes = []) {
      // Bounded: a worker that hangs or died must not keep the proxy from exiting.
      const answer = await Promise.race([
        ask({ kind: "report", notes }),
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error("the judging worker gave no report within 10 s")),
            10_000,
          ).unref(),
        ),
      ]);
      if (answer.kind !== "report") throw new Error("the judging worker gave no report");
      return answer.report;
    },
    async close() {
      worker.removeAllListeners("exit");
      await worker.terminate();
    },
  };
}
