import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import type { RateLimitStore, WindowState } from "./store.ts";

/**
 * One sorted set per client IP (score = request time in ms), trimmed and counted in one Lua
 * script so that concurrent instances cannot both take the last slot. The key expires one
 * window after its last counted request, so idle clients cost nothing.
 */
const HIT = `
local key, now, window, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {allowed, count, oldest[2] or ''}
`;

const PEEK = `
local key, now, window = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local count = redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')
local oldest = redis.call('ZRANGEBYSCORE', key, '(' .. (now - window), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return {count, oldest[2] or ''}
`;

type Reply = [number, number, string];

/** The scripts as commands: ioredis sends EVALSHA (the script's hash) and EVAL only on NOSCRIPT. */
interface ScriptCommands {
  dealkitHit(key: string, nowMs: number, windowMs: number, limit: number, member: string): Promise<Reply>;
  dealkitPeek(key: string, nowMs: number, windowMs: number): Promise<[number, string]>;
}

export class RedisStore implements RateLimitStore {
  private readonly redis: Redis & ScriptCommands;
  private readonly instance = randomBytes(6).toString("hex");
  private counter = 0;

  constructor(
    url: string,
    private readonly prefix = "dealkit:ratelimit:",
  ) {
    // No offline queue: when Redis is down a call fails at once and the limiter falls back.
    const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.defineCommand("dealkitHit", { numberOfKeys: 1, lua: HIT });
    redis.defineCommand("dealkitPeek", { numberOfKeys: 1, lua: PEEK });
    this.redis = redis as Redis & ScriptCommands;
    // Connection errors surface through the failing calls (the limiter falls back and logs).
    this.redis.on("error", () => {});
  }

  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    const member = `${nowMs}-${this.instance}-${this.counter++}`;
    const [allowed, count, oldest] = await this.redis.dealkitHit(
      this.prefix + key,
      nowMs,
      windowMs,
      limit,
      member,
    );
    return { allowed: allowed === 1, count, oldestMs: oldest === "" ? undefined : Number(oldest) };
  }

  async peek(key: string, nowMs: number, windowMs: number): Promise<Omit<WindowState, "allowed">> {
    const [count, oldest] = await this.redis.dealkitPeek(this.prefix + key, nowMs, windowMs);
    return { count, oldestMs: oldest === "" ? undefined : Number(oldest) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
