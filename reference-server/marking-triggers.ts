import { setFlagsFromString } from "node:v8";

/**
 * How far into the old generation's headroom (its limit less its size after the last full
 * collection, in percent) V8 starts incremental marking: by a task from the soft trigger, at once
 * from the hard one.
 */
export const MARKING_TRIGGER_FLAGS = {
  "incremental-marking-soft-trigger": 50,
  "incremental-marking-hard-trigger": 90,
} as const;

/**
 * Without these triggers V8 starts marking (by a task) as soon as the old generation's headroom
 * is no larger than the young generation (Heap::IncrementalMarkingLimitReached). The server's
 * heap is small (about 23 MB live at a million alerts: the token sets and the price column are
 * ArrayBuffer memory that marking does not walk) and its limit after a collection 36-64 MB, while
 * the young generation holds about 32 MB: the headroom is at or below that from the start, so a
 * new marking began every 15-20 s under the bench's search load although the old generation grew
 * by only 0.1 MB a second, and its steps (5-10 ms on the main thread on a busy 2-core machine)
 * fell in first-seen searches. With the triggers marking starts once half the headroom has been
 * used, which that load takes minutes to do. The limits themselves are V8's: the heap grows no
 * larger than before. Read by V8 when it decides, so setting them in a running process takes
 * effect at once; called by startServer, so `dealkit serve` and the bench alike need nothing on
 * the node command line.
 */
export function startMarkingLate(): void {
  for (const [flag, percent] of Object.entries(MARKING_TRIGGER_FLAGS))
    setFlagsFromString(`--${flag}=${percent}`);
}
