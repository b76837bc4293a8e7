import { describe, expect, it } from "vitest";
import { RateLimiter, rateLimitHeaders } from "./limiter.ts";
import { MemoryStore } from "./memory.ts";

const policy = { limit: 60, windowSeconds: 60 };
const T0 = 1_795_000_000_000;

function limiter(store = new MemoryStore()) {
  return new RateLimiter(store, policy);
}

describe("sliding-window limiter (injected clock)", () => {
  it("allows 60 requests in a minute and refuses the 61st with Retry-After", async () => {
    const l = limiter();
    for (let i = 0; i < 60; i++) expect((await l.hit("a", T0 + i * 100)).allowed).toBe(true);
    const refused = await l.hit("a", T0 + 6_000);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    // The first request (T0) leaves the window at T0 + 60 s: 54 s after T0 + 6 s.
    expect(rateLimitHeaders(refused)["Retry-After"]).toBe("54");
  });

  it("lets the next request in exactly when Retry-After says, not before", async () => {
    const l = limiter();
    for (let i = 0; i < 60; i++) await l.hit("a", T0 + i * 1000);
    const refused = await l.hit("a", T0 + 59_500);
    const wait = Number(rateLimitHeaders(refused)["Retry-After"]);
    expect(wait).toBe(1);
    expect((await l.hit("a", T0 + 59_999)).allowed).toBe(false);
    expect((await l.hit("a", T0 + 59_500 + wait * 1000)).allowed).toBe(true);
  });

  it("is a sliding window, not a fixed one: no 120 requests around a window edge", async () => {
    const l = limiter();
    for (let i = 0; i < 60; i++) await l.hit("a", T0 + 59_000);
    // A fixed window starting at T0 + 60 s would allow these; the sliding one does not.
    expect((await l.hit("a", T0 + 61_000)).allowed).toBe(false);
    expect((await l.hit("a", T0 + 118_999)).allowed).toBe(false);
    expect((await l.hit("a", T0 + 119_000)).allowed).toBe(true);
  });

  it("does not count refused requests", async () => {
    const l = limiter();
    for (let i = 0; i < 60; i++) await l.hit("a", T0);
    for (let i = 0; i < 100; i++) expect((await l.hit("a", T0 + 1000 + i)).allowed).toBe(false);
    // Had the refusals counted, the window would still be full at T0 + 60 s.
    const next = await l.hit("a", T0 + 60_000);
    expect(next.allowed).toBe(true);
  });

  it("counts each client IP separately", async () => {
    const l = limiter();
    for (let i = 0; i < 60; i++) await l.hit("127.0.0.2", T0);
    expect((await l.hit("127.0.0.2", T0)).allowed).toBe(false);
    expect((await l.hit("127.0.0.3", T0)).allowed).toBe(true);
  });

  it("reports Remaining and Reset on every decision: Reset 0 while requests remain, else until a slot frees", async () => {
    const l = limiter();
    const first = await l.hit("a", T0);
    expect(rateLimitHeaders(first)).toEqual({
      "RateLimit-Limit": "60",
      "RateLimit-Remaining": "59",
      "RateLimit-Reset": "0",
    });
    for (let i = 1; i < 59; i++) await l.hit("a", T0 + 10_000);
    const last = await l.hit("a", T0 + 20_500);
    expect(rateLimitHeaders(last)).toEqual({
      "RateLimit-Limit": "60",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "40",
    });
    const refused = await l.hit("a", T0 + 21_000);
    expect(rateLimitHeaders(refused)).toMatchObject({ "RateLimit-Reset": "39", "Retry-After": "39" });
  });

  it("peeks without counting (preflights)", async () => {
    const l = limiter();
    await l.hit("a", T0);
    for (let i = 0; i < 10; i++) expect((await l.peek("a", T0 + 1)).remaining).toBe(59);
    expect((await l.hit("a", T0 + 2)).remaining).toBe(58);
  });

  it("keeps memory bounded under many distinct IPs", async () => {
    const store = new MemoryStore(1000);
    const l = limiter(store);
    for (let i = 0; i < 20_000; i++)
      await l.hit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, T0 + i);
    expect(store.size).toBeLessThanOrEqual(1000);
  });

  it("evicts idle clients, so a quiet hour leaves nothing behind", async () => {
    const store = new MemoryStore();
    const l = limiter(store);
    for (let i = 0; i < 500; i++) await l.hit(`ip${i}`, T0);
    // Each later request evicts a few idle clients from the front of the map.
    for (let i = 0; i < 200; i++) await l.hit("late", T0 + 3_600_000 + i);
    expect(store.size).toBe(1);
  });

  it("reports a memory-only store as local by design", () => {
    // The failure policy (Redis stalled or down) is tested in resilient-store.test.ts and failover.test.ts.
    expect(limiter().storeState()).toEqual({ mode: "local", sharedConfigured: false });
  });
});
