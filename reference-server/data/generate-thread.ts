/**
 * The worker side of generateInWorker (generate-worker.ts): runs generateStream and posts its
 * alerts in batches, then the rest of the dataset, on the port it is given. `signals` counts
 * batches posted (slot 0) and read (slot 1), so that the reader can wait for the next one
 * synchronously and this thread never runs more than AHEAD batches ahead of the writer.
 */
import { type MessagePort, workerData } from "node:worker_threads";
import { GramLists } from "../db/gram-lists.ts";
import { type GenerateOptions, generateStream } from "./generate.ts";
import type { AlertRow } from "./records.ts";

export interface GeneratorThreadData {
  options: GenerateOptions;
  port: MessagePort;
  signals: Int32Array;
  batch: number;
  ahead: number;
  /** Also collect the alerts' gram lists (doc 0 = the first alert), posted after the alerts. */
  grams: boolean;
}

/** What the thread posts, in order: alert batches, then the rest (or a failure at any point). */
export type GeneratorMessage =
  | { kind: "alerts"; rows: AlertRow[] }
  | { kind: "grams"; terms: string[]; lists: Uint32Array[] }
  | { kind: "rest"; rest: ReturnType<ReturnType<typeof generateStream>["rest"]> }
  | { kind: "failed"; message: string };

const ABANDONED_MS = 60_000;

const { options, port, signals, batch, ahead, grams } = workerData as GeneratorThreadData;

function post(message: GeneratorMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(signals, 0, 1);
  Atomics.notify(signals, 0);
}

try {
  const { alerts, rest } = generateStream(options);
  const lists = grams ? new GramLists() : undefined;
  let rows: AlertRow[] = [];
  let doc = 0;
  for (const row of alerts) {
    if (lists) {
      lists.addText(doc, row.title);
      lists.addText(doc, row.content);
    }
    doc++;
    rows.push(row);
    if (rows.length < batch) continue;
    // Wait while the writer is `ahead` batches behind: the rows would pile up in memory. A
    // writer that reads nothing for a minute failed before reading on: the thread ends.
    const posted = Atomics.load(signals, 0);
    const read = Atomics.load(signals, 1);
    if (posted - read >= ahead && Atomics.wait(signals, 1, read, ABANDONED_MS) === "timed-out")
      throw new Error("the writer stopped reading the generated alerts");
    post({ kind: "alerts", rows });
    rows = [];
  }
  if (rows.length > 0) post({ kind: "alerts", rows });
  if (lists) {
    const terms: string[] = [];
    const views: Uint32Array[] = [];
    for (const [term, list] of lists.drain()) {
      terms.push(term);
      views.push(list.view());
    }
    // Transferred, not copied: at 1M alerts the lists hold ~60M doc numbers.
    post(
      { kind: "grams", terms, lists: views },
      views.map((v) => v.buffer as ArrayBuffer),
    );
  }
  post({ kind: "rest", rest: rest() });
} catch (err) {
  post({ kind: "failed", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
port.close();
