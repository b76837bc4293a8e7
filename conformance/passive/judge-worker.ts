/** The judging worker thread: a TrafficJudge fed with the proxy's exchanges, in order (judging.ts). */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { trafficOfBytes } from "./body.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import type { WorkerAnswer, WorkerInit, WorkerRequest } from "./judging.ts";
import { verdictOf } from "./judging.ts";

/**
 * Judging takes the CPU that forwarding leaves: this thread's nice value is raised (on Linux a
 * thread has its own), so that on a busy machine an answer is passed on first and the judge
 * catches up from its backlog, or sheds past it, counted (judging.ts BACKLOG). Without it, at a
 * steady 1,000 req/s on 2 cores the judge took a core from the forwarding and the server.
 */
const JUDGE_NICE = 5;
try {
  // "/proc/thread-self" names this thread: "PID/task/TID".
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, JUDGE_NICE);
} catch {
  // Not Linux: the judge competes with forwarding as an equal.
}

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
