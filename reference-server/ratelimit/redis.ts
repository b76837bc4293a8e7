import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { parseRedisUrl } from "./redis-url.ts";
import type { SharedStore } from "./resilient-store.ts";
import type { WindowState } from "./store.ts";

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

/** The hit script's probe: limit 0 counts nothing, and no client key can be named "probe". */
const PROBE_KEY = "probe";

/**
 * The shared store. It fails fast rather than waiting: no offline queue (a call while
 * disconnected fails at once instead of queueing), and how long a call may take on a live but
 * silent connection is bounded by the caller (ResilientStore's timeout), which then counts
 * locally. ioredis reconnects by itself after a connection is lost; ResilientStore's probes
 * decide when counting goes back to Redis.
 */
export class RedisStore implements SharedStore {
  readonly address: string;
  private readonly redis: Redis & ScriptCommands;
  private readonly instance = randomBytes(6).toString("hex");
  private counter = 0;
  /** The latest connection error, for messages: ioredis itself only says "Connection is closed." */
  private lastError?: Error;
  private closing = false;

  /** Throws InvalidRedisUrlError for anything but a redis:// or rediss:// URL. */
  constructor(
    url: string,
    private readonly prefix = "dealkit:ratelimit:",
  ) {
    const target = parseRedisUrl(url);
    this.address = target.address;
    const redis = new Redis(target.url, {
      lazyConnect: true,
      // Fail at once while disconnected, never queue: a queued hit would be decided late.
      enableOfflineQueue: false,
      // When a connection drops, reject its unanswered commands at once (their requests are then,
      // or were already, counted locally) and never resend them on the next connection: a resent
      // hit would be counted twice, with a stale timestamp.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // A host that does not answer SYN (firewalled, gone) is given up on after 2 s, then retried.
      connectTimeout: 2_000,
      // Reconnect forever, at most a second apart: with the probes' longest delay (2 s) a Redis
      // that comes back is rejoined within about 3 s. A refused connection costs next to nothing.
      retryStrategy: (attempt) => Math.min(attempt * 50, 1_000),
      // Two round trips fewer per (re)connection; the library name in CLIENT LIST is not needed.
      disableClientInfo: true,
    });
    redis.defineCommand("dealkitHit", { numberOfKeys: 1, lua: HIT });
    redis.defineCommand("dealkitPeek", { numberOfKeys: 1, lua: PEEK });
    this.redis = redis as Redis & ScriptCommands;
    // Connection errors surface through the failing calls; the latest one names the cause.
    this.redis.on("error", (err: Error) => {
      this.lastError = err;
    });
    this.redis.on("ready", () => {
      this.lastError = undefined;
    });
  }

  /** Connects; rejects with the cause (ECONNREFUSED, ETIMEDOUT...) if the first attempt fails. ioredis keeps retrying. */
  async connect(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (err) {
      throw this.lastError ?? err;
    }
  }

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    this.mustBeReady();
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
    this.mustBeReady();
    const [count, oldest] = await this.redis.dealkitPeek(this.prefix + key, nowMs, windowMs);
    return { count, oldestMs: oldest === "" ? undefined : Number(oldest) };
  }

  /**
   * Proves that hits work again: the hit script itself (so a flushed script cache, a read-only
   * replica or a missing permission fail the probe, not the next request), with limit 0 on a key
   * no client has, so nothing is counted or stored.
   */
  async ping(): Promise<void> {
    // ioredis stops reconnecting only after a fatal error at connect time; start it again.
    if (this.redis.status === "end" && !this.closing) this.redis.connect().catch(() => {});
    this.mustBeReady();
    await this.redis.dealkitHit(this.prefix + PROBE_KEY, Date.now(), 1, 0, "probe");
  }

  async close(): Promise<void> {
    this.closing = true;
    this.redis.disconnect();
  }

  /** While not connected, fail with the reason rather than ioredis's "Stream isn't writeable". */
  private mustBeReady(): void {
    if (this.redis.status === "ready") return;
    const cause = this.lastError?.message ?? this.redis.status;
    throw new Error(`not connected (${cause})`);
  }
}
