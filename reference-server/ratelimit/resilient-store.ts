import { oneLine } from "../../src/errors/one-line.ts";
import { BREAKER_DEFAULTS, Breaker, type BreakerOptions } from "./breaker.ts";
import { type Clock, systemClock, withTimeout } from "./clock.ts";
import type { RateLimitStore, StoreState, WindowState } from "./store.ts";

/** A store other instances share (Redis), with a way to check it works without counting anything. */
export interface SharedStore extends RateLimitStore {
  ping(): Promise<void>;
}

export interface ResilientOptions {
  /**
   * The longest a request waits for the shared store (ms). Past it the request is counted in
   * memory: this bounds the latency a stalled Redis adds. A healthy Redis on the same network
   * answers the hit script in well under a millisecond.
   */
  timeoutMs: number;
  breaker: BreakerOptions;
  clock: Clock;
  /** One line per switch between shared and local (stderr by default). */
  log: (line: string) => void;
  /** The shared store as log lines name it, e.g. "Redis at 127.0.0.1:6379". */
  name: string;
}

export const DEFAULT_TIMEOUT_MS = 50;
/** How long start() waits for the first connection before starting on memory. */
export const START_WAIT_MS = 1_000;

/**
 * The store failure policy: count in the shared store while it answers in time; when it fails or
 * stalls, count in this instance's memory (the limit then holds per instance: never an error,
 * never unlimited) until a background probe finds the shared store answering again.
 *
 * Counts are not carried over on a switch: after switching to memory a client starts from what
 * this instance counted before (usually nothing), after switching back from what Redis holds.
 * A hit that timed out may still be executed by Redis once it wakes up (a command cannot be
 * taken back): a few requests around the start of a stall can be counted in both stores.
 */
export class ResilientStore implements RateLimitStore {
  private readonly breaker: Breaker;
  private readonly options: ResilientOptions;
  private probeTimer: unknown;
  private closed = false;

  constructor(
    private readonly shared: SharedStore,
    private readonly local: RateLimitStore,
    options: Partial<ResilientOptions> = {},
  ) {
    this.options = {
      timeoutMs: DEFAULT_TIMEOUT_MS,
      breaker: BREAKER_DEFAULTS,
      clock: systemClock,
      log: (line) => console.error(line),
      name: "the shared store",
      ...options,
    };
    this.breaker = new Breaker(this.options.clock.now(), this.options.breaker);
  }

  /**
   * Waits up to `waitMs` for the first connection, so that the first requests are shared when the
   * shared store is up. If it is not (refused, silent, slow), the instance starts on memory and
   * the probes join the shared store when it answers: a missing Redis never stops a start.
   */
  async start(connecting: Promise<unknown>, waitMs = START_WAIT_MS): Promise<void> {
    const { generation } = this.breaker;
    try {
      await withTimeout(connecting, waitMs, this.options.clock, `${this.options.name} (connecting)`);
    } catch (err) {
      this.fail(err, generation, "is unavailable at start");
    }
  }

  hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    return this.route((store) => store.hit(key, nowMs, limit, windowMs));
  }

  peek(key: string, nowMs: number, windowMs: number): Promise<Omit<WindowState, "allowed">> {
    return this.route((store) => store.peek(key, nowMs, windowMs));
  }

  state(): StoreState {
    const { mode, sinceMs, lastError, lastErrorAtMs } = this.breaker;
    return { mode, sharedConfigured: true, sinceMs, lastError, lastErrorAtMs };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer !== undefined) this.options.clock.clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    await this.shared.close();
    await this.local.close();
  }

  /** Shared while the breaker is closed, bounded by the timeout; local at once while it is open. */
  private async route<T>(call: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (this.breaker.mode === "local") return call(this.local);
    const { generation } = this.breaker;
    try {
      return await withTimeout(
        call(this.shared),
        this.options.timeoutMs,
        this.options.clock,
        this.options.name,
      );
    } catch (err) {
      this.fail(err, generation, "failed");
      return call(this.local);
    }
  }

  /** Opens the breaker (once, however many calls fail together), logs the switch, starts probing. */
  private fail(err: unknown, generation: number, what: string): void {
    if (this.closed || !this.breaker.trip(err, this.options.clock.now(), generation)) return;
    this.options.log(
      `dealkit: rate-limit store: ${this.options.name} ${what} (${oneLine(err)}); ` +
        "limiting per instance in memory until it answers again",
    );
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.closed) return;
    this.probeTimer = this.options.clock.setTimeout(() => {
      this.probeTimer = undefined;
      void this.probe();
    }, this.breaker.probeDelayMs());
  }

  /** Off the request path: requests keep counting locally while a probe waits on the shared store. */
  private async probe(): Promise<void> {
    const { clock, timeoutMs, name } = this.options;
    try {
      await withTimeout(this.shared.ping(), timeoutMs, clock, name);
    } catch (err) {
      if (this.closed) return;
      this.breaker.probeFailed(err, clock.now());
      this.scheduleProbe();
      return;
    }
    if (this.closed) return;
    const localSinceMs = this.breaker.sinceMs;
    const nowMs = clock.now();
    if (!this.breaker.recover(nowMs)) return;
    const seconds = ((nowMs - localSinceMs) / 1000).toFixed(1);
    this.options.log(
      `dealkit: rate-limit store: ${name} answers again after ${seconds} s; limits are shared again`,
    );
  }
}
