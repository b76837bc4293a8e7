import type { RateLimitStore, StoreState, WindowState } from "./store.ts";

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds until at least one more request is allowed (components.headers.RateLimit-Reset): 0
   * while requests remain; else until the oldest counted request leaves the window (a slot frees).
   */
  resetSeconds: number;
}

/**
 * The sliding-window limit of x-rate-limit: a request is allowed when fewer than `limit`
 * requests of the same client were counted in the last `windowSeconds`. Refused requests are
 * not counted, so a client that keeps knocking is let in as soon as its oldest request ages out.
 * What happens when a shared store (Redis) fails is the store's business: see resilient-store.ts
 * (each instance then limits on its own, never serving errors, never serving without a limit).
 */
export class RateLimiter {
  private readonly windowMs: number;

  constructor(
    private readonly store: RateLimitStore,
    readonly policy: RateLimitPolicy,
  ) {
    this.windowMs = policy.windowSeconds * 1000;
  }

  async hit(client: string, nowMs: number): Promise<Decision> {
    const state = await this.store.hit(client, nowMs, this.policy.limit, this.windowMs);
    return this.decide(state, nowMs);
  }

  /**
   * hit() answered at once when the store counts in this process (memory); undefined when it
   * does not (Redis): the caller then awaits hit(). Counts exactly as hit() does.
   */
  hitNow(client: string, nowMs: number): Decision | undefined {
    const state = this.store.hitNow?.(client, nowMs, this.policy.limit, this.windowMs);
    return state && this.decide(state, nowMs);
  }

  async peek(client: string, nowMs: number): Promise<Decision> {
    const state = await this.store.peek(client, nowMs, this.windowMs);
    return this.decide({ ...state, allowed: true }, nowMs);
  }

  /** Where counts go now: "shared" (Redis) or "local" (this instance's memory), since when, and why. */
  storeState(): StoreState {
    return this.store.state?.() ?? { mode: "local", sharedConfigured: false };
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  private decide(state: WindowState, nowMs: number): Decision {
    const remaining = Math.max(0, this.policy.limit - state.count);
    // A client with requests left may send one now: the wait for a slot matters only once none is left.
    const untilSlotFrees =
      remaining > 0 || state.oldestMs === undefined
        ? 0
        : Math.max(0, Math.ceil((state.oldestMs + this.windowMs - nowMs) / 1000));
    return {
      allowed: state.allowed,
      limit: this.policy.limit,
      remaining,
      resetSeconds: untilSlotFrees,
    };
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
