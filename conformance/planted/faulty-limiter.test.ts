/**
 * The planted fixed-window limiter on an injected clock (the store is given the time): a client's
 * windows start `leadMs` before its first request, so the boundary comes where the test says,
 * not when the wall clock's minute turns.
 */
import { describe, expect, it } from "vitest";
import { FixedWindowStore } from "./faulty-limiter.ts";

const WINDOW_MS = 10_000;
const LIMIT = 60;

describe("FixedWindowStore", () => {
  it("refuses the 61st within its window, says the time to its boundary, and resets whole at it", async () => {
    const store = new FixedWindowStore(500);
    const t0 = 1_000_000;
    for (let i = 0; i < LIMIT; i++)
      expect((await store.hit("a", t0 + i * 50, LIMIT, WINDOW_MS)).allowed, `request ${i + 1}`).toBe(true);
    const refused = await store.hit("a", t0 + 4000, LIMIT, WINDOW_MS);
    expect(refused).toMatchObject({ allowed: false, count: LIMIT, oldestMs: t0 - 500 });
    // At the boundary (9.5 s after the first request) the whole limit is back: 60 more within seconds.
    for (let i = 0; i < LIMIT; i++)
      expect((await store.hit("a", t0 + 9500 + i * 50, LIMIT, WINDOW_MS)).allowed, `after ${i + 1}`).toBe(
        true,
      );
    expect((await store.hit("a", t0 + 9500 + 3100, LIMIT, WINDOW_MS)).allowed).toBe(false);
  });

  it("counts each client in its own windows", async () => {
    const store = new FixedWindowStore(500);
    for (let i = 0; i < LIMIT; i++) await store.hit("a", 1000 + i, LIMIT, WINDOW_MS);
    expect(await store.hit("b", 1100, LIMIT, WINDOW_MS)).toMatchObject({ allowed: true, count: 1 });
  });

  it("without a lead, its windows are the clock's own multiples (each wall-clock minute for 60 s)", async () => {
    const store = new FixedWindowStore();
    const minute = 60_000;
    for (let i = 0; i < LIMIT; i++) await store.hit("a", 59 * 1000 + i * 10, LIMIT, minute);
    expect((await store.hit("a", 59_900, LIMIT, minute)).allowed).toBe(false);
    expect(await store.hit("a", minute, LIMIT, minute)).toMatchObject({
      allowed: true,
      count: 1,
      oldestMs: minute,
    });
  });
});
