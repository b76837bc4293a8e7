import type { Clock } from "./clock.ts";

/** The advertised limit: `limit` requests per sliding `windowSeconds` (x-rate-limit, /api/v1/meta). */
export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

/**
 * Client-side pacing: before each request, waits until it is at most the `limit`th request
 * within the last window. A client that paces itself never meets a 429 from a conforming server
 * (other clients behind the same IP aside), instead of burning requests on refusals.
 */
export class Pacer {
  private readonly sent: number[] = [];

  constructor(
    private readonly policy: RatePolicy,
    private readonly clock: Clock,
  ) {}

  async acquire(): Promise<void> {
    const windowMs = this.policy.windowSeconds * 1000;
    for (;;) {
      const t = this.clock.now();
      while (this.sent.length > 0 && (this.sent[0] ?? 0) <= t - windowMs) this.sent.shift();
      if (this.sent.length < this.policy.limit) {
        this.sent.push(t);
        return;
      }
      await this.clock.sleep((this.sent[0] ?? t) + windowMs - t);
    }
  }
}
