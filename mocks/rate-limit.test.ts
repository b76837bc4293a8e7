import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "./rate-limit.ts";

const policy = { limit: 3, window_seconds: 10, counts_refused: false };

function limiterAt(start = 1_000_000) {
  let t = start;
  const limiter = new SlidingWindowLimiter(policy, () => t);
  return { limiter, advance: (ms: number) => (t += ms) };
}

describe("SlidingWindowLimiter", () => {
  it("allows `limit` requests, then refuses with Retry-After until the oldest leaves the window", () => {
    const { limiter, advance } = limiterAt();
    const seen = [limiter.take("a").remaining];
    advance(2000);
    seen.push(limiter.take("a").remaining);
    advance(2000);
    seen.push(limiter.take("a").remaining);
    expect(seen).toEqual([2, 1, 0]);
    const refused = limiter.take("a");
    // Oldest at t0, now t0+4 s: it leaves the 10 s window in 6 s.
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 6, resetSeconds: 6 });
    advance(6000);
    expect(limiter.take("a").allowed).toBe(true);
  });

  it("is a sliding window: no burst of 2×limit around a window edge", () => {
    const { limiter, advance } = limiterAt();
    advance(9000);
    for (let i = 0; i < 3; i++) expect(limiter.take("a").allowed).toBe(true);
    advance(1500); // a fixed 10 s bucket would have reset here
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("does not count refused requests, so waiting Retry-After always succeeds", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.take("a");
    for (let i = 0; i < 20; i++) limiter.take("a");
    const wait = limiter.take("a").retryAfterSeconds;
    advance(wait * 1000);
    expect(limiter.take("a").allowed).toBe(true);
  });

  it("counts each client IP on its own, and peek counts nothing", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.take("a");
    expect(limiter.peek("a").allowed).toBe(false);
    expect(limiter.peek("b")).toMatchObject({ allowed: true, remaining: 3, resetSeconds: 0 });
    expect(limiter.take("b").remaining).toBe(2);
  });

  it("never answers Retry-After 0, even when the slot frees within the same second", () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.take("a");
    advance(9999);
    expect(limiter.take("a").retryAfterSeconds).toBe(1);
  });
});
