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
  /** The window as it is, without counting anything (preflights). */
  peek(key: string, nowMs: number, windowMs: number): Promise<Omit<WindowState, "allowed">>;
  close(): Promise<void>;
}
