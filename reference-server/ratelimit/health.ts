import type { RateLimiter } from "./limiter.ts";

export interface RateLimitHealth {
  /** "degraded": Redis is configured but the instance limits on its own memory right now. */
  status: "ok" | "degraded";
  rateLimit: {
    /** "off": no limiter (benchmarks). */
    store: "shared" | "local" | "off";
    sharedConfigured: boolean;
    since?: string;
    lastError?: string;
    lastErrorAt?: string;
  };
}

/**
 * The body of a health endpoint (e.g. GET /healthz). Meant to be answered with 200 whatever the
 * status: an instance counting in memory still serves correctly (limited per instance), and a
 * load balancer that took out every instance because their shared Redis failed would turn a
 * degraded limit into an outage. "degraded" is for people and monitors, not for routing.
 */
export function rateLimitHealth(limiter: RateLimiter | undefined): RateLimitHealth {
  if (!limiter) return { status: "ok", rateLimit: { store: "off", sharedConfigured: false } };
  const s = limiter.storeState();
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return {
    status: s.sharedConfigured && s.mode === "local" ? "degraded" : "ok",
    rateLimit: {
      store: s.mode,
      sharedConfigured: s.sharedConfigured,
      ...(s.sinceMs !== undefined ? { since: iso(s.sinceMs) } : {}),
      ...(s.lastError !== undefined ? { lastError: s.lastError, lastErrorAt: iso(s.lastErrorAtMs) } : {}),
    },
  };
}
