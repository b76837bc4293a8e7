import { RateLimiter, type RateLimitPolicy } from "./limiter.ts";
import { MemoryStore } from "./memory.ts";
import { RedisStore } from "./redis.ts";
import { DEFAULT_TIMEOUT_MS, ResilientStore, START_WAIT_MS } from "./resilient-store.ts";

export interface LimiterOptions {
  policy: RateLimitPolicy;
  /** Share the windows through Redis; without it, memory only. */
  redisUrl?: string;
  /** The longest a request waits for Redis before counting in memory (ms, default 50). */
  redisTimeoutMs?: number;
  /** Cap on the clients the in-memory store tracks. */
  maxClients?: number;
}

/**
 * The server's limiter: memory only, or Redis behind the failure policy with memory as the local
 * store. Never fails because Redis is down (that only makes the start wait up to startWaitMs);
 * throws on a malformed Redis URL (InvalidRedisUrlError) or timeout, which are mistakes to fix.
 */
export async function createRateLimiter(options: LimiterOptions): Promise<RateLimiter> {
  const local = new MemoryStore(options.maxClients);
  if (options.redisUrl === undefined) return new RateLimiter(local, options.policy);
  const timeoutMs = options.redisTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 60_000) {
    throw new Error(`the Redis timeout must be a number of milliseconds from 1 to 60000, got ${timeoutMs}`);
  }
  const redis = new RedisStore(options.redisUrl);
  const store = new ResilientStore(redis, local, { timeoutMs, name: `Redis at ${redis.address}` });
  await store.start(redis.connect(), START_WAIT_MS);
  return new RateLimiter(store, options.policy);
}
