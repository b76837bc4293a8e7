import { createServer, type Server, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { type RedisServer, redisAvailable, startRedis } from "../../bench/redis.ts";
import { freePort } from "../../mocks/port.ts";
import type { BuiltApp } from "../index.ts";
import { injectTransport, NOW_MS, type Transport, testApp } from "../test/helpers.ts";
import { createRateLimiter } from "./create.ts";
import type { RateLimiter } from "./limiter.ts";

/**
 * The failure policy against real sockets: a Redis that never answers, one that goes silent
 * after connecting, one that is not there yet at start, and a real redis-server stopped with
 * SIGSTOP (the process freezes, its connections stay open: the case with no error to react to).
 */

const TIMEOUT_MS = 50;
/** Scheduling slack on a loaded 2-core machine; still two orders of magnitude below a stall. */
const MARGIN_MS = 400;
const policy = { limit: 60, windowSeconds: 60 };

/** A TCP server on loopback that accepts connections and never writes a byte. */
async function silentServer(answerHandshake = false) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    if (!answerHandshake) return;
    // ioredis's ready check is one INFO; answer it, then fall silent like a frozen Redis.
    let answered = false;
    socket.on("data", (chunk) => {
      if (answered || !/info/i.test(chunk.toString("latin1"))) return;
      answered = true;
      socket.write("$9\r\nloading:0\r\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

async function eventually(what: string, check: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The switch lines the store wrote to stderr. */
function switchLines(spy: MockInstance): string[] {
  return spy.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith("dealkit: rate-limit store:"));
}

/** Sends the same client through instances in turn; returns the RateLimit-Remaining seen. */
async function alternate(sends: Transport[], from: string, n: number): Promise<string[]> {
  const remaining: string[] = [];
  for (let i = 0; i < n; i++) {
    const reply = await (sends[i % sends.length] as Transport)("/api/v1/meta", { from });
    remaining.push(reply.status === 429 ? "429" : (reply.headers["ratelimit-remaining"] ?? "?"));
  }
  return remaining;
}

const countdown = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from - i));

let stderr: MockInstance;
beforeEach(() => {
  stderr = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  stderr.mockRestore();
});

describe("rate-limit store when Redis does not answer (no redis-server needed)", () => {
  it("a Redis that accepts and never answers: the server starts on memory and limits per instance", async () => {
    const silent = await silentServer();
    let app: BuiltApp | undefined;
    try {
      app = await testApp({ redisUrl: silent.url, redisTimeoutMs: TIMEOUT_MS });
      const send = injectTransport(app.app);
      for (let i = 0; i < 60; i++) {
        const { value, ms } = await timed(() => send("/api/v1/meta", { from: "127.0.0.40" }));
        expect(value.status).toBe(200);
        expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      }
      expect((await send("/api/v1/meta", { from: "127.0.0.40" })).status).toBe(429);
      expect(switchLines(stderr)).toEqual([
        `dealkit: rate-limit store: Redis at 127.0.0.1:${new URL(silent.url).port} is unavailable at start ` +
          `(Redis at 127.0.0.1:${new URL(silent.url).port} (connecting) did not answer within 1000 ms); ` +
          "limiting per instance in memory until it answers again",
      ]);
    } finally {
      await app?.close();
      await silent.close();
    }
  });

  it("a Redis that falls silent once connected: each request waits at most the timeout, then none waits", async () => {
    const silent = await silentServer(true);
    let limiter: RateLimiter | undefined;
    try {
      limiter = await createRateLimiter({ policy, redisUrl: silent.url, redisTimeoutMs: TIMEOUT_MS });
      expect(limiter.storeState().mode).toBe("shared");
      const l = limiter;
      const first = await Promise.all(
        Array.from({ length: 50 }, () => timed(() => l.hit("10.0.0.1", NOW_MS))),
      );
      for (const { ms } of first) expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      // Each of them waited for the timeout at least: they were sent to Redis, then counted locally.
      expect(Math.min(...first.map((r) => r.ms))).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(first.map((r) => r.value.remaining).sort((a, b) => b - a)).toEqual(
        Array.from({ length: 50 }, (_, i) => 59 - i),
      );
      const state = limiter.storeState();
      expect(state).toMatchObject({ mode: "local", sharedConfigured: true });
      expect(state.lastError).toBe(
        `Redis at 127.0.0.1:${new URL(silent.url).port} did not answer within 50 ms`,
      );
      // The breaker is open: later requests are local at once, with no timer in between.
      const later = await timed(() => l.hit("10.0.0.1", NOW_MS));
      expect(later.ms).toBeLessThan(TIMEOUT_MS);
      expect(later.value.remaining).toBe(9);
      expect(switchLines(stderr)).toHaveLength(1);
    } finally {
      await limiter?.close();
      await silent.close();
    }
  });
});

const available = redisAvailable();
if (!available)
  console.warn("SKIPPED redis failover tests: no redis-server binary (apt-get install -y redis-server)");

describe.skipIf(!available)("rate-limit store with a real redis-server that comes and goes", () => {
  it("Redis absent at start: both instances start on memory, then share counts once Redis appears", async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    let a: BuiltApp | undefined;
    let b: BuiltApp | undefined;
    let redis: RedisServer | undefined;
    let admin: Redis | undefined;
    try {
      a = await testApp({ redisUrl: url });
      b = await testApp({ redisUrl: url });
      const [toA, toB] = [injectTransport(a.app), injectTransport(b.app)];
      // Limited per instance: a refuses the 61st, b has counted nothing for this client.
      expect(await alternate([toA], "127.0.0.50", 61)).toEqual([...countdown(59, 60), "429"]);
      expect(await alternate([toB], "127.0.0.50", 1)).toEqual(["59"]);

      // Redis appears 3 s later: by then the probes have backed off to their longest delay.
      await new Promise((r) => setTimeout(r, 3_000));
      redis = await startRedis({ port });
      const appeared = Date.now();
      admin = new Redis(url);
      const r = admin;
      // Joined once a request is counted in Redis (fresh client addresses: nothing else counted there).
      let probe = 0;
      for (const send of [toA, toB]) {
        await eventually("the instance counts in Redis", async () => {
          const from = `127.0.1.${++probe}`;
          await send("/api/v1/meta", { from });
          return (await r.exists(`dealkit:ratelimit:${from}`)) === 1;
        });
      }
      // Longest probe delay (2 s) + ioredis's reconnect delay (at most 1 s) + slack.
      // 2 s probe interval + 1 s reconnect + polling, with margin for a busy 2-core machine.
      expect(Date.now() - appeared).toBeLessThan(6_000);
      // Shared: one window across both instances, the 61st refused on either.
      expect(await alternate([toA, toB], "127.0.0.51", 61)).toEqual([...countdown(59, 60), "429"]);
      expect(await alternate([toB], "127.0.0.51", 1)).toEqual(["429"]);
      const lines = switchLines(stderr);
      expect(lines.filter((l) => l.includes("is unavailable at start (connect ECONNREFUSED"))).toHaveLength(
        2,
      );
      expect(lines.filter((l) => l.includes("answers again after"))).toHaveLength(2);
      expect(lines).toHaveLength(4);
    } finally {
      admin?.disconnect();
      await a?.close();
      await b?.close();
      await redis?.stop();
    }
  }, 20_000);

  it("a busy event loop is not mistaken for a stalled Redis", async () => {
    const redis = await startRedis();
    let limiter: RateLimiter | undefined;
    try {
      limiter = await createRateLimiter({ policy, redisUrl: redis.url, redisTimeoutMs: TIMEOUT_MS });
      await limiter.hit("10.0.0.2", NOW_MS);
      const pending = limiter.hit("10.0.0.2", NOW_MS);
      // Blocks the process three times the timeout: Redis answered long before we look.
      const until = Date.now() + 3 * TIMEOUT_MS;
      while (Date.now() < until);
      expect((await pending).remaining).toBe(58);
      expect(limiter.storeState().mode).toBe("shared");
      expect(switchLines(stderr)).toEqual([]);
    } finally {
      await limiter?.close();
      await redis.stop();
    }
  });

  it("Redis stopped (SIGSTOP) for a few seconds: requests stay fast, limits local, shared again after SIGCONT", async () => {
    const redis = await startRedis();
    let a: BuiltApp | undefined;
    let b: BuiltApp | undefined;
    const admin = new Redis(redis.url);
    try {
      a = await testApp({ redisUrl: redis.url, redisTimeoutMs: TIMEOUT_MS });
      b = await testApp({ redisUrl: redis.url, redisTimeoutMs: TIMEOUT_MS });
      const [toA, toB] = [injectTransport(a.app), injectTransport(b.app)];
      expect(await alternate([toA, toB], "127.0.0.60", 4)).toEqual(countdown(59, 4));

      redis.freeze();
      const stoppedAt = Date.now();
      // Concurrent requests on both instances: none waits longer than the timeout (+ slack).
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          timed(() => (i % 2 ? toA : toB)("/api/v1/meta", { from: `127.0.2.${i}` })),
        ),
      );
      for (const { value, ms } of burst) {
        expect(value.status).toBe(200);
        expect(ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      }
      // Limited per instance meanwhile: a refuses the 61st of a client, b still lets it in.
      expect(await alternate([toA], "127.0.0.61", 61)).toEqual([...countdown(59, 60), "429"]);
      expect(await alternate([toB], "127.0.0.61", 1)).toEqual(["59"]);
      const local = switchLines(stderr);
      expect(local).toHaveLength(2);
      for (const line of local)
        expect(line).toMatch(/failed \(Redis at 127\.0\.0\.1:\d+ did not answer within 50 ms\)/);
      // Stay stopped for 3 s in all, then continue.
      await new Promise((r) => setTimeout(r, Math.max(0, 3_000 - (Date.now() - stoppedAt))));
      redis.thaw();

      let probe = 0;
      for (const send of [toA, toB]) {
        await eventually("the instance counts in Redis again", async () => {
          const from = `127.0.3.${++probe}`;
          await send("/api/v1/meta", { from });
          return (await admin.exists(`dealkit:ratelimit:${from}`)) === 1;
        });
      }
      // The window counted in Redis before the stop is there again, shared by both instances.
      expect(await alternate([toA, toB], "127.0.0.60", 2)).toEqual(countdown(55, 2));
      expect(await alternate([toA, toB], "127.0.0.62", 61)).toEqual([...countdown(59, 60), "429"]);
      const lines = switchLines(stderr);
      expect(lines.filter((l) => l.includes("answers again after"))).toHaveLength(2);
      expect(lines).toHaveLength(4);
    } finally {
      admin.disconnect();
      await a?.close();
      await b?.close();
      await redis.stop();
    }
  }, 20_000);
});
