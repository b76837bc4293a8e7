import { describe, expect, it } from "vitest";
import { rateLimitHealth } from "./health.ts";
import { RateLimiter } from "./limiter.ts";
import { MemoryStore } from "./memory.ts";
import type { StoreState } from "./store.ts";

const policy = { limit: 60, windowSeconds: 60 };
const T0 = Date.UTC(2026, 10, 25, 2, 30, 0);

/** A memory store that reports the state the failure policy would. */
function reporting(state: StoreState): RateLimiter {
  const store = Object.assign(new MemoryStore(), { state: () => state });
  return new RateLimiter(store, policy);
}

describe("rate-limit health body", () => {
  it("is ok when shared, or local by design, or without a limiter", () => {
    expect(rateLimitHealth(reporting({ mode: "shared", sharedConfigured: true, sinceMs: T0 }))).toEqual({
      status: "ok",
      rateLimit: { store: "shared", sharedConfigured: true, since: "2026-11-25T02:30:00.000Z" },
    });
    expect(rateLimitHealth(new RateLimiter(new MemoryStore(), policy))).toEqual({
      status: "ok",
      rateLimit: { store: "local", sharedConfigured: false },
    });
    expect(rateLimitHealth(undefined).rateLimit.store).toBe("off");
  });

  it("is degraded while Redis is configured but the instance counts locally, naming why", () => {
    const state: StoreState = {
      mode: "local",
      sharedConfigured: true,
      sinceMs: T0,
      lastError: "Redis at 127.0.0.1:6379 did not answer within 50 ms",
      lastErrorAtMs: T0,
    };
    expect(rateLimitHealth(reporting(state))).toEqual({
      status: "degraded",
      rateLimit: {
        store: "local",
        sharedConfigured: true,
        since: "2026-11-25T02:30:00.000Z",
        lastError: "Redis at 127.0.0.1:6379 did not answer within 50 ms",
        lastErrorAt: "2026-11-25T02:30:00.000Z",
      },
    });
  });
});
