import { describe, expect, it } from "vitest";
import { Breaker } from "./breaker.ts";

const T0 = 1_795_000_000_000;
const options = { minProbeMs: 100, maxProbeMs: 2_000, stableMs: 30_000 };

describe("store circuit breaker (plain state)", () => {
  it("starts shared and trips once, however many calls fail together", () => {
    const b = new Breaker(T0, options);
    expect(b.mode).toBe("shared");
    const g = b.generation;
    expect(b.trip(new Error("Command timed out"), T0 + 50, g)).toBe(true);
    // The other calls that were waiting on the same stall fail just after: no second switch.
    expect(b.trip(new Error("Command timed out"), T0 + 51, g)).toBe(false);
    expect(b.mode).toBe("local");
    expect(b.sinceMs).toBe(T0 + 50);
    expect(b.lastError).toBe("Command timed out");
  });

  it("backs off probes: 100, 200, 400 ... ms, at most maxProbeMs", () => {
    const b = new Breaker(T0, options);
    b.trip(new Error("down"), T0);
    const delays = [b.probeDelayMs()];
    for (let i = 0; i < 7; i++) {
      b.probeFailed(new Error("still down"), T0 + i);
      delays.push(b.probeDelayMs());
    }
    expect(delays).toEqual([100, 200, 400, 800, 1600, 2000, 2000, 2000]);
    expect(b.lastError).toBe("still down");
  });

  it("recovers once, and ignores a failure from before the switches", () => {
    const b = new Breaker(T0, options);
    const before = b.generation;
    b.trip(new Error("down"), T0);
    expect(b.recover(T0 + 100)).toBe(true);
    expect(b.recover(T0 + 101)).toBe(false);
    expect(b.mode).toBe("shared");
    // A call started before the trip fails late: Redis has answered a probe since, keep sharing.
    expect(b.trip(new Error("late"), T0 + 150, before)).toBe(false);
    expect(b.mode).toBe("shared");
    // The last error is kept after recovering (the store state shows it, with its time).
    expect([b.lastError, b.lastErrorAtMs]).toEqual(["down", T0]);
  });

  it("keeps the grown delay when Redis flaps, starts over after a stable shared period", () => {
    const b = new Breaker(T0, options);
    b.trip(new Error("down"), T0);
    b.probeFailed(new Error("down"), T0 + 100);
    b.probeFailed(new Error("down"), T0 + 300);
    expect(b.recover(T0 + 700)).toBe(true);
    // Fails again 1 s after recovering: flapping, so probe less often rather than log more.
    b.trip(new Error("down"), T0 + 1_700);
    expect(b.probeDelayMs()).toBe(800);
    b.recover(T0 + 2_500);
    // Shared for a minute, then a new outage: probes start fast again.
    b.trip(new Error("down"), T0 + 62_500);
    expect(b.probeDelayMs()).toBe(100);
  });
});
