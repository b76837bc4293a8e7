import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * One full garbage collection, run by the server once it is built and before it listens, so that
 * the start-up's garbage is not collected in the middle of the first requests.
 *
 * Building the server reads every token set (FastCounts.warm: 88 MB of blobs at a million alerts,
 * external memory to V8), the price column and the spec, and compiles the modules. That leaves
 * V8 with full collections still due: traced (--trace-gc) on the 1M bench database, 2-4
 * mark-compacts ran from "external memory pressure" or a marking task in the first second or two,
 * one of them often just after the server listened, with incremental marking steps of 5-24 ms on
 * the main thread inside requests (the bench's first-seen searches showed 4-6.5 ms of such steps
 * in their slowest samples). After this collection the heap is its live size (about 23 MB, mostly
 * the modules' code and source) and V8's limits are set from it: the server's own allocation
 * under a steady search load (about 0.1 MB a second promoted) then reaches the next limit only
 * minutes later. Cost: one collection at start-up, 10-35 ms.
 *
 * Node has no API for a collection without --expose-gc on its command line, which a server
 * started as a library or by `dealkit serve` cannot require; the flag is set for a moment to take
 * `gc` from a new context, the way Jest's leak detector does (jest-leak-detector), and unset
 * again: no `gc` appears in the server's own global scope.
 */
export function settleHeap(): void {
  startMarkingLate();
  const exposed = typeof (globalThis as { gc?: unknown }).gc === "function";
  setFlagsFromString("--expose-gc");
  try {
    (runInNewContext("gc") as () => void)();
  } finally {
    if (!exposed) setFlagsFromString("--no-expose-gc");
  }
}

/**
 * How far into the old generation's headroom (its limit less its size after the last full
 * collection, in percent) V8 starts incremental marking: by a task from the soft trigger, at once
 * from the hard one.
 */
const MARKING_SOFT_TRIGGER_PERCENT = 50;
const MARKING_HARD_TRIGGER_PERCENT = 90;

/**
 * Without these triggers V8 starts marking (by a task) as soon as the old generation's headroom
 * is no larger than the young generation (Heap::IncrementalMarkingLimitReached). The server's
 * heap is small (about 23 MB live) and its limit after a collection 36-64 MB, while the young
 * generation holds about 32 MB: the headroom is at or below that from the start, so a new
 * marking began every 15-20 s under the bench's search load although the old generation grew by
 * only 0.1 MB a second, and its steps (5-10 ms on the main thread on a busy 2-core machine) fell
 * in requests. With the triggers marking starts once half the headroom has been used, which that
 * load takes minutes to do. The limits themselves are V8's: the heap grows no larger than before.
 * Read by V8 when it decides, so setting them in a running process takes effect at once.
 */
function startMarkingLate(): void {
  setFlagsFromString(`--incremental-marking-soft-trigger=${MARKING_SOFT_TRIGGER_PERCENT}`);
  setFlagsFromString(`--incremental-marking-hard-trigger=${MARKING_HARD_TRIGGER_PERCENT}`);
}
