import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Gc = (options?: { type?: "minor" | "major"; execution?: "sync" | "async" }) => void;

/**
 * A young-generation collection of the bench process itself, to run between two timed requests.
 * The one-at-a-time search client allocates a little per request (the body, /proc reads), and
 * its scavenges then fell inside the timed part of a request now and then: in the full run of
 * 2026-11-26 23:27, 2 of the 3 slowest first-seen samples of three kinds at 1M overlapped a GC
 * of the client, not of the server. Collecting before each request moves that pause out of the
 * measurement; the server's own pauses stay in. `--expose-gc` set at run time, as V8 allows.
 */
export function clientMinorGc(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as Gc;
  return () => gc({ type: "minor" });
}
