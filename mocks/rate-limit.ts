import type { RateLimitPolicy } from "../src/spec/types.ts";

/** What the limiter decided for one request, in the units the RateLimit-* headers use. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until at least one more request is allowed (0 when one is allowed now). */
  resetSeconds: number;
  /** Delta-seconds for Retry-After on a refused request; never below 1. */
  retryAfterSeconds: number;
}

/**
 * A sliding-window limiter (x-rate-limit: "more than N within any window", not fixed buckets):
 * one list of accepted request times per client IP. Refused requests are not recorded, as the
 * policy's `counts_refused: false` says, so a client that waits Retry-After always gets through.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly windowMs: number;

  constructor(
    private readonly policy: Pick<RateLimitPolicy, "limit" | "window_seconds" | "counts_refused">,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = policy.window_seconds * 1000;
  }

  /** Counts one request from `ip` when it is allowed. */
  take(ip: string): RateDecision {
    const t = this.now();
    const recent = this.prune(ip, t);
    const allowed = recent.length < this.policy.limit;
    if (allowed || this.policy.counts_refused) recent.push(t);
    this.hits.set(ip, recent);
    return this.decision(recent, t, allowed);
  }

  /** The current state for `ip` without counting a request (forced answers, preflights). */
  peek(ip: string): RateDecision {
    const t = this.now();
    const recent = this.prune(ip, t);
    return this.decision(recent, t, recent.length < this.policy.limit);
  }

  private prune(ip: string, t: number): number[] {
    const recent = (this.hits.get(ip) ?? []).filter((at) => at > t - this.windowMs);
    // Idle IPs are dropped so a long-running mock does not grow without bound.
    if (recent.length === 0) this.hits.delete(ip);
    return recent;
  }

  private decision(recent: number[], t: number, allowed: boolean): RateDecision {
    const limit = this.policy.limit;
    const remaining = Math.max(0, limit - recent.length);
    // The slot that frees first is the oldest of the last `limit` accepted requests.
    const oldest = recent[recent.length - limit];
    const wait = oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - t) / 1000));
    return {
      allowed,
      limit,
      remaining,
      resetSeconds: remaining > 0 ? 0 : wait,
      retryAfterSeconds: Math.max(1, wait),
    };
  }
}
