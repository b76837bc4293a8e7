import { oneLine } from "../../src/errors/one-line.ts";
/**
 * The circuit breaker in front of the shared rate-limit store, as plain state (no timers, no I/O:
 * resilient-store.ts drives it; its tests need no clock at all).
 *
 * - "shared" (closed): calls go to Redis. The first failure or timeout trips it.
 * - "local" (open): calls go to this instance's memory at once, without waiting on Redis. Only
 *   background probes touch Redis, after probeDelayMs(); a successful probe closes it again.
 *
 * There is no half-open state letting some requests through: a probe is a real store operation
 * (see RedisStore.ping), so a request never pays for finding out whether Redis is back.
 */
export interface BreakerOptions {
  /** Delay before the first probe after a trip (ms); it doubles after each failed probe. */
  minProbeMs: number;
  /** The longest delay between probes (ms): a recovered Redis is rejoined within about this. */
  maxProbeMs: number;
  /**
   * A shared period shorter than this (ms) counts as flapping: the next trip keeps the grown probe
   * delay instead of starting over at minProbeMs, so a Redis that answers probes and then fails
   * again does not produce a pair of switch log lines every few hundred milliseconds.
   */
  stableMs: number;
}

export const BREAKER_DEFAULTS: BreakerOptions = { minProbeMs: 100, maxProbeMs: 2_000, stableMs: 30_000 };

export type StoreMode = "shared" | "local";

export class Breaker {
  mode: StoreMode = "shared";
  sinceMs: number;
  /**
   * Incremented on every switch. A call remembers the generation it started in; a failure that
   * arrives after the breaker has switched (twice) since is old news and must not trip it again.
   */
  generation = 0;
  lastError?: string;
  lastErrorAtMs?: number;
  /** Consecutive failures (the trip and the failed probes after it): sets the probe delay. */
  private failures = 0;

  constructor(
    nowMs: number,
    private readonly options: BreakerOptions = BREAKER_DEFAULTS,
  ) {
    this.sinceMs = nowMs;
  }

  /** A call to the shared store failed. True when this switches to local (the caller logs it). */
  trip(err: unknown, nowMs: number, generation = this.generation): boolean {
    if (this.mode === "local" || generation !== this.generation) return false;
    if (nowMs - this.sinceMs >= this.options.stableMs) this.failures = 0;
    this.failures++;
    this.noteError(err, nowMs);
    this.switchTo("local", nowMs);
    return true;
  }

  /** A probe failed while local: probe again later, backing off. */
  probeFailed(err: unknown, nowMs: number): void {
    this.failures++;
    this.noteError(err, nowMs);
  }

  /** A probe succeeded. True when this switches back to shared (the caller logs it). */
  recover(nowMs: number): boolean {
    if (this.mode === "shared") return false;
    this.switchTo("shared", nowMs);
    return true;
  }

  /** How long to wait before the next probe: minProbeMs doubling per failure, at most maxProbeMs. */
  probeDelayMs(): number {
    const { minProbeMs, maxProbeMs } = this.options;
    return Math.min(maxProbeMs, minProbeMs * 2 ** Math.min(30, Math.max(0, this.failures - 1)));
  }

  private switchTo(mode: StoreMode, nowMs: number): void {
    this.mode = mode;
    this.sinceMs = nowMs;
    this.generation++;
  }

  private noteError(err: unknown, nowMs: number): void {
    this.lastError = oneLine(err);
    this.lastErrorAtMs = nowMs;
  }
}
