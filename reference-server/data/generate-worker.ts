/**
 * generateStream run in a worker thread: a bulk write of a large generation spends about a
 * quarter of its CPU making the rows, which a second core does meanwhile. The rows are the same
 * (the same seeded generator, in the same order). The writer is synchronous (one transaction),
 * so batches are read with receiveMessageOnPort, waiting on a shared counter when none is there.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { GenerateOptions, generateStream } from "./generate.ts";
import type { GeneratorMessage, GeneratorThreadData } from "./generate-thread.ts";
import type { AlertRow } from "./records.ts";

/** Alerts per message: large enough that posting costs little per row, small enough to stream. */
const BATCH = 2_000;
/** Batches the thread may run ahead of the writer. */
const AHEAD = 8;
/** A thread that posts nothing for this long has died (it posts a batch every few ms). */
const STALL_MS = 60_000;

/** ".ts" in a checkout (run through tsx), ".js" in the built package. */
const EXT = import.meta.url.slice(import.meta.url.lastIndexOf("."));

/**
 * `grams`: the thread also collects the alerts' gram lists (gram-lists.ts), readable after the
 * alerts: the writer then skips that work (write.ts alertGrams).
 */
export function generateInWorker(
  options: GenerateOptions,
  grams = false,
): ReturnType<typeof generateStream> & { grams: () => Iterable<[string, Uint32Array]> } {
  const { port1, port2 } = new MessageChannel();
  const signals = new Int32Array(new SharedArrayBuffer(8));
  const data: GeneratorThreadData = { options, port: port2, signals, batch: BATCH, ahead: AHEAD, grams };
  const worker = new Worker(new URL(`./generate-thread${EXT}`, import.meta.url), {
    workerData: data,
    transferList: [port2],
    ...(EXT === ".ts" ? { execArgv: ["--import", "tsx"] } : {}),
  });
  // Not kept alive by the thread: the write waits on it synchronously anyway.
  worker.unref();
  const next = (): GeneratorMessage => {
    for (;;) {
      const posted = Atomics.load(signals, 0);
      const received = receiveMessageOnPort(port1);
      if (received) return received.message as GeneratorMessage;
      if (Atomics.wait(signals, 0, posted, STALL_MS) === "timed-out")
        throw new Error("the generator thread stopped posting");
    }
  };
  let rest: GeneratorMessage | undefined;
  let lists: (GeneratorMessage & { kind: "grams" }) | undefined;
  const alerts = function* (): Generator<AlertRow> {
    try {
      for (let m = next(); ; m = next()) {
        if (m.kind === "failed") throw new Error(`the generator thread failed: ${m.message}`);
        if (m.kind === "rest") {
          rest = m;
          return;
        }
        if (m.kind === "grams") {
          lists = m;
          continue;
        }
        Atomics.add(signals, 1, 1);
        Atomics.notify(signals, 1);
        yield* m.rows;
      }
    } finally {
      port1.close();
      if (!rest) void worker.terminate();
    }
  };
  return {
    alerts: alerts(),
    rest: () => {
      if (rest?.kind !== "rest") throw new Error("generateStream: read the alerts before the rest");
      return rest.rest;
    },
    grams: function* () {
      if (!lists) throw new Error("generateInWorker: the gram lists come after the alerts, when asked for");
      for (const [i, term] of lists.terms.entries()) yield [term, lists.lists[i] as Uint32Array];
    },
  };
}
