/** The judging worker thread: a TrafficJudge fed with the proxy's exchanges, in order (judging.ts). */
import { parentPort, workerData } from "node:worker_threads";
import { trafficOfBytes } from "./body.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import type { WorkerAnswer, WorkerInit, WorkerRequest } from "./judging.ts";
import { verdictOf } from "./judging.ts";

const init = workerData as WorkerInit;
const port = parentPort;
if (!port) throw new Error("judge-worker.ts runs as a worker thread");
const answer = (a: WorkerAnswer) => port.postMessage(a);
// The spec and the checks are read here only (not in the proxy's thread too: that cost ~80 MB
// of RSS); a wrong --only or --skip is said back as the proxy's usage error.
let judge: TrafficJudge;
try {
  judge = new TrafficJudge(await passiveSetup(init.setup), init.judge);
} catch (err) {
  answer({ id: 0, kind: "refused", message: (err as Error).message });
  process.exit(0);
}

port.on("message", (request: WorkerRequest) => {
  try {
    if (request.kind === "observe")
      answer({
        id: request.id,
        kind: "verdict",
        // The body's bytes were moved here: decoded now, off the forwarding thread.
        verdict: verdictOf(judge.observe(trafficOfBytes(request.exchange))),
      });
    else if (request.kind === "skip") {
      judge.skip(request.reason);
      answer({ id: request.id, kind: "verdict", verdict: { findings: [] } });
    } else answer({ id: request.id, kind: "report", report: judge.report(request.notes) });
  } catch (err) {
    answer({ id: request.id, kind: "error", message: (err as Error).message });
  }
});
answer({ id: 0, kind: "ready" });
