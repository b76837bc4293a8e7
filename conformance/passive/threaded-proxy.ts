/**
 * `dealkit proxy` with its forwarding in a worker thread whose V8 heap is bounded (FORWARDER_HEAP),
 * as the judging worker's is (judging.ts WORKER_HEAP). What the proxy keeps is bounded by count
 * and age (conformance/README.md, "Passive conformance: memory"), but V8 sizes a thread's heap by
 * the machine's memory and collects old garbage late: at a steady 400 req/s the forwarding
 * thread's heap grew to ~180 MB, almost all garbage, when the live part stays near 40 MB. A
 * bounded heap is collected before it grows. The CLI's own thread only waits for a signal.
 */
import { Worker } from "node:worker_threads";
import type { RunReport } from "../runner/report.ts";
import type { ProxyRun } from "./main.ts";
import { OptionError } from "./option-error.ts";
import type { ProxyArgs } from "./proxy-args.ts";

/** The forwarding thread's heap: its live part is the exchanges in flight and the open connections. */
export const FORWARDER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

export type ForwarderAnswer =
  | { kind: "listening"; url: string }
  | { kind: "stopped"; code: number; report: RunReport }
  | { kind: "failed"; option: boolean; message: string; code?: string; syscall?: string; path?: string };

/** ".ts" in a checkout (run through tsx), ".js" in the built package. */
const EXT = import.meta.url.slice(import.meta.url.lastIndexOf("."));

/**
 * Starts the forwarding thread with the options as given (read there: see proxy-args.ts); a wrong
 * one is an OptionError, before anything listens.
 */
export function proxyInWorker(args: ProxyArgs): Promise<ProxyRun> {
  const worker = new Worker(new URL(`./proxy-thread${EXT}`, import.meta.url), {
    workerData: args,
    ...(EXT === ".ts" ? { execArgv: ["--import", "tsx"] } : {}),
    resourceLimits: FORWARDER_HEAP,
  });
  const next = () =>
    new Promise<ForwarderAnswer>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the proxy's forwarding thread exited (${code})`));
      worker.once("error", reject);
      worker.once("exit", onExit);
      worker.once("message", (a: ForwarderAnswer) => {
        worker.off("error", reject);
        worker.off("exit", onExit);
        resolve(a);
      });
    });
  return next().then(async (first) => {
    if (first.kind === "failed") {
      await worker.terminate();
      if (first.option) throw new OptionError(first.message);
      throw Object.assign(new Error(first.message), {
        ...(first.code ? { code: first.code } : {}),
        ...(first.syscall ? { syscall: first.syscall } : {}),
        ...(first.path ? { path: first.path } : {}),
      });
    }
    if (first.kind !== "listening") throw new Error("the proxy's forwarding thread did not start");
    return {
      url: first.url,
      // Fire and forget: the thread writes the files and prints the verdicts itself.
      writeClients: async () => worker.postMessage("clients"),
      stop: async () => {
        const stopped = next();
        worker.postMessage("stop");
        const last = await stopped;
        // The thread ends by itself once its server and judge are closed (its console output
        // flushed first); one that does not within a few seconds is ended.
        const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
        const timer = setTimeout(() => void worker.terminate(), 5000);
        await exited;
        clearTimeout(timer);
        if (last.kind !== "stopped") throw new Error("the proxy's forwarding thread did not stop");
        return { code: last.code, report: last.report };
      },
    };
  });
}
