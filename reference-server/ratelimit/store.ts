/**
 * Where the sliding-window counters live. One instance: memory. Several instances behind one
 * address: Redis, so that they share each client's window.
 */
export interface WindowState {
  /** False when the window was already full; a refused request is not counted. */
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  count: number;
  /** When the oldest counted request in the window was made (ms), if any. */
  oldestMs?: number;
}

export interface RateLimitStore {
  /** Counts a request made at `nowMs` unless `limit` requests were already counted in the last `windowMs`. */
  hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState>;
  /**
   * The same count, answered at once: offered by stores that count in this process (memory), so
   * that a request's hit costs no promise and no turn of the event loop.
   */
  hitNow?(key: string, nowMs: number, limit: number, windowMs: number): WindowState;
  /** The window as it is, without counting anything (preflights). */
  peek(key: string, nowMs: number, windowMs: number): Promise<Omit<WindowState, "allowed">>;
  close(): Promise<void>;
  /** Where counts go now; stores without it are local by design (memory). */
  state?(): StoreState;
}

/**
 * Where the limiter counts right now: "shared" (Redis: one window per client across instances)
 * or "local" (this instance's memory: each instance limits on its own).
 */
export interface StoreState {
  mode: "shared" | "local";
  /** Whether a shared store is configured: tells "local by design" from "local because it failed". */
  sharedConfigured: boolean;
  /** Since when (ms since the epoch) the mode holds; absent for a memory-only limiter. */
  sinceMs?: number;
  /** The latest failure of the shared store (kept after it recovers, with its time). */
  lastError?: string;
  lastErrorAtMs?: number;
}
