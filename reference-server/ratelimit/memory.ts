import type { RateLimitStore, WindowState } from "./store.ts";

interface Entry {
  /** Times (ms) of the counted requests still in the window, oldest first. */
  times: number[];
  lastSeenMs: number;
}

/**
 * In-process sliding-window store. Memory is bounded: at most `maxKeys` clients, each holding at
 * most `limit` timestamps. The map is kept in least-recently-seen order (an entry is re-inserted
 * on every request), so idle clients sit at the front: each call evicts a few whose last request
 * left the window, and when the cap is reached the least recently seen client is dropped (its
 * window restarts: under a flood of distinct addresses we fail open rather than grow).
 */
export class MemoryStore implements RateLimitStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxKeys = 100_000) {}

  get size(): number {
    return this.entries.size;
  }

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    this.evictIdle(nowMs, windowMs);
    const entry = this.entries.get(key) ?? { times: [], lastSeenMs: nowMs };
    this.entries.delete(key);
    prune(entry.times, nowMs, windowMs);
    const allowed = entry.times.length < limit;
    if (allowed) entry.times.push(nowMs);
    entry.lastSeenMs = nowMs;
    this.entries.set(key, entry);
    while (this.entries.size > this.maxKeys) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return { allowed, count: entry.times.length, oldestMs: entry.times[0] };
  }

  async peek(key: string, nowMs: number, windowMs: number): Promise<Omit<WindowState, "allowed">> {
    const times = (this.entries.get(key)?.times ?? []).filter((t) => t > nowMs - windowMs);
    return { count: times.length, oldestMs: times[0] };
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private evictIdle(nowMs: number, windowMs: number): void {
    for (let i = 0; i < 8; i++) {
      const first = this.entries.entries().next().value as [string, Entry] | undefined;
      if (!first || first[1].lastSeenMs > nowMs - windowMs) return;
      this.entries.delete(first[0]);
    }
  }
}

/** Drops timestamps that left the window (t <= now - window); times are in arrival order. */
function prune(times: number[], nowMs: number, windowMs: number): void {
  let drop = 0;
  while (drop < times.length && (times[drop] as number) <= nowMs - windowMs) drop++;
  if (drop > 0) times.splice(0, drop);
}
