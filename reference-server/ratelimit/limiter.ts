import type { RateLimitStore, WindowState } from "./store.ts";

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (a slot frees); 0 when none is counted. */
  resetSeconds: number;
}

/**
 * The sliding-window limit of x-rate-limit: a request is allowed when fewer than `limit`
 * requests of the same client were counted in the last `windowSeconds`. Refused requests are
 * not counted, so a client that keeps knocking is let in as soon as its oldest request ages out.
 * When the shared store fails (Redis down) the limiter falls back to a local store: each
 * instance still limits, rather than serving errors or serving without a limit.
 */
export class RateLimiter {
  private readonly windowMs: number;

  constructor(
    private readonly store: RateLimitStore,
    private readonly policy: RateLimitPolicy,
    private readonly fallback?: RateLimitStore,
    private readonly onStoreError: (err: unknown) => void = () => {},
  ) {
    this.windowMs = policy.windowSeconds * 1000;
  }

  async hit(client: string, nowMs: number): Promise<Decision> {
    const state = await this.withFallback((s) => s.hit(client, nowMs, this.policy.limit, this.windowMs));
    return this.decide(state, nowMs);
  }

  async peek(client: string, nowMs: number): Promise<Decision> {
    const state = await this.withFallback((s) => s.peek(client, nowMs, this.windowMs));
    return this.decide({ ...state, allowed: true }, nowMs);
  }

  async close(): Promise<void> {
    await this.store.close();
    await this.fallback?.close();
  }

  private decide(state: WindowState, nowMs: number): Decision {
    const untilSlotFrees =
      state.oldestMs === undefined
        ? 0
        : Math.max(0, Math.ceil((state.oldestMs + this.windowMs - nowMs) / 1000));
    return {
      allowed: state.allowed,
      limit: this.policy.limit,
      remaining: Math.max(0, this.policy.limit - state.count),
      resetSeconds: untilSlotFrees,
    };
  }

  private async withFallback<T>(call: (store: RateLimitStore) => Promise<T>): Promise<T> {
    try {
      return await call(this.store);
    } catch (err) {
      if (!this.fallback) throw err;
      this.onStoreError(err);
      return call(this.fallback);
    }
  }
}

/** The response headers of a decision (x-rate-limit headers; Retry-After only when refused). */
export function rateLimitHeaders(d: Decision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(d.limit),
    "RateLimit-Remaining": String(d.remaining),
    "RateLimit-Reset": String(d.resetSeconds),
  };
  // Delta-seconds, never 0: the real time until the oldest counted request leaves the window.
  if (!d.allowed) headers["Retry-After"] = String(Math.max(1, d.resetSeconds));
  return headers;
}
