import { describe, expect, it } from "vitest";
import { Pacer, type Slot } from "./pacer.ts";

/** A fake clock: sleeping advances it. */
function clock() {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
}

describe("Pacer", () => {
  it("never lets one address exceed the limit within a window, and spreads over addresses", async () => {
    const c = clock();
    const pacer = new Pacer(["a", "b"], 3, 10, c.now);
    const sent: { address: string | undefined; at: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const slot = (await pacer.acquire(c.sleep)) as Slot;
      sent.push({ address: slot.address, at: c.now() });
      slot.release(c.now());
    }
    for (const s of sent) {
      const inWindow = sent.filter((x) => x.address === s.address && x.at > s.at - 10_000 && x.at <= s.at);
      expect(inWindow.length).toBeLessThanOrEqual(3);
    }
    expect(sent.slice(0, 6).filter((s) => s.address === "a")).toHaveLength(3);
    expect(sent[6]?.at).toBeGreaterThanOrEqual(11_000);
  });

  it("believes the server's RateLimit-Remaining when it is lower than its own count", () => {
    const c = clock();
    const pacer = new Pacer(["a"], 60, 60, c.now);
    pacer.observe("a", 0);
    expect(pacer.waitFor("a")).toBeGreaterThanOrEqual(60_000);
  });

  it("rests an address for Retry-After", () => {
    const c = clock();
    const pacer = new Pacer(["a"], 60, 60, c.now);
    pacer.rest("a", 5);
    expect(pacer.waitFor("a")).toBeGreaterThanOrEqual(5_000);
  });
});

describe("Pacer under concurrency", () => {
  it("releases a slot taken before other requests pruned the list (regression: a single address deadlocked)", async () => {
    const c = clock();
    const pacer = new Pacer([undefined], 2, 1, c.now);
    const first = (await pacer.acquire(c.sleep)) as Slot;
    c.now();
    await c.sleep(2000);
    const second = (await pacer.acquire(c.sleep)) as Slot; // prunes the list while `first` is in flight
    first.release(c.now());
    second.release(c.now());
    await c.sleep(2100);
    expect(pacer.waitFor(undefined)).toBe(0);
    expect(pacer.idleIn(undefined)).toBe(0);
  });
});
