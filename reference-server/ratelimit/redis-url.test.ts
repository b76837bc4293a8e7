import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./create.ts";
import { InvalidRedisUrlError, parseRedisUrl } from "./redis-url.ts";

const policy = { limit: 60, windowSeconds: 60 };

describe("--redis-url check", () => {
  it("accepts redis:// and rediss:// URLs and names them without credentials", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6380").address).toBe("127.0.0.1:6380");
    expect(parseRedisUrl("redis://cache").address).toBe("cache:6379");
    expect(parseRedisUrl("rediss://user:s3cret@cache.internal:6380/2").address).toBe("cache.internal:6380");
    expect(parseRedisUrl("redis://[::1]:6379/").address).toBe("[::1]:6379");
  });

  it.each([
    ["http://cache:6379", "scheme http:"],
    ["localhost:6379", "scheme localhost:"],
    ["127.0.0.1:6379", "not a URL"],
    ["cache", "not a URL"],
    ["redis://", "no host"],
    ["redis://cache:0", "port 0"],
    ["redis://cache/db1", "the path must be a database number"],
  ])("refuses %s in one line (%s)", (url, why) => {
    expect(() => parseRedisUrl(url)).toThrow(InvalidRedisUrlError);
    expect(() => parseRedisUrl(url)).toThrow(
      `invalid Redis URL (${why}): expected redis://[user:password@]host[:port][/db] or rediss://... (TLS)`,
    );
  });

  it("never repeats a password it was given", () => {
    expect(() => parseRedisUrl("https://user:s3cret@cache:6379")).toThrow(/^(?![\s\S]*s3cret)[^\n]+$/);
  });

  it("stops the limiter's build before any connection is tried", async () => {
    await expect(createRateLimiter({ policy, redisUrl: "http://cache:6379" })).rejects.toThrow(
      InvalidRedisUrlError,
    );
    await expect(createRateLimiter({ policy, redisUrl: "redis://cache", redisTimeoutMs: 0 })).rejects.toThrow(
      "the Redis timeout must be a number of milliseconds from 1 to 60000, got 0",
    );
  });
});
