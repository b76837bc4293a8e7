import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { settleHeap } from "./settle-heap.ts";

describe("settleHeap", () => {
  it("collects garbage that nothing else would have collected yet", async () => {
    // A weakly held object in old space is only freed by a full collection; a WeakRef keeps its
    // target for the rest of the job that made it, hence the turn of the loop before collecting.
    let target: object | undefined = { payload: new Array(1000).fill(0) };
    const ref = new WeakRef(target);
    target = undefined;
    await nextTurn();
    settleHeap();
    expect(ref.deref()).toBeUndefined();
  });

  it("leaves no gc function in the global scope when none was there", () => {
    const before = typeof (globalThis as { gc?: unknown }).gc;
    settleHeap();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(before);
  });
});
