import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "./memory.ts";

/** The sliding window as the contract states it: every counted request of the last window, kept whole. */
class NaiveWindow {
  private readonly times = new Map<string, number[]>();
  hit(key: string, nowMs: number, limit: number, windowMs: number) {
    const inWindow = (this.times.get(key) ?? []).filter((t) => t > nowMs - windowMs);
    const allowed = inWindow.length < limit;
    if (allowed) inWindow.push(nowMs);
    this.times.set(key, inWindow);
    return { allowed, count: inWindow.length, oldestMs: inWindow[0] };
  }
  peek(key: string, nowMs: number, windowMs: number) {
    const inWindow = (this.times.get(key) ?? []).filter((t) => t > nowMs - windowMs);
    return { count: inWindow.length, oldestMs: inWindow[0] };
  }
}

const step = fc.record({
  key: fc.constantFrom("a", "a", "a", "b", "c"),
  // Mostly steps of a few ms, so that many timestamps leave a window while the client stays
  // (compaction of its list); now and then a long gap that empties windows and idle clients.
  advanceMs: fc.oneof(
    { weight: 40, arbitrary: fc.integer({ min: 0, max: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 2_000 }) },
  ),
  peek: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

describe("memory store against the naive sliding window", () => {
  it("decides, counts and names the oldest request alike, through compaction of the lists", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(3, 60, 500),
        fc.constantFrom(50, 1_000),
        fc.array(step, { minLength: 300, maxLength: 1_500, size: "max" }),
        async (limit, windowMs, steps) => {
          const store = new MemoryStore();
          const naive = new NaiveWindow();
          let nowMs = 1_795_000_000_000;
          for (const s of steps) {
            nowMs += s.advanceMs;
            if (s.peek)
              expect(await store.peek(s.key, nowMs, windowMs)).toEqual(naive.peek(s.key, nowMs, windowMs));
            else
              expect(store.hitNow(s.key, nowMs, limit, windowMs)).toEqual(
                naive.hit(s.key, nowMs, limit, windowMs),
              );
          }
        },
      ),
      { seed: 25, numRuns: 60 },
    );
  });

  it("follows a steady client at a raised limit (the bench's), past many compactions", () => {
    const store = new MemoryStore();
    const naive = new NaiveWindow();
    for (let i = 0; i < 2_000; i++) {
      const nowMs = 1_795_000_000_000 + i;
      expect(store.hitNow("a", nowMs, 1_000_000_000, 50)).toEqual(naive.hit("a", nowMs, 1_000_000_000, 50));
    }
  });
});
