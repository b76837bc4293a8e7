import { createServer, type Server, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { type RedisServer, redisAvailable, startRedis } from "../../bench/redis.ts";
import { freePort } from "../../mocks/port.ts";
import { requireTool } from "../../test/required-tool.ts";
import type { BuiltApp } from "../index.ts";
import { bodyOf, injectTransport, NOW_MS, type Transport, testApp } from "../test/helpers.ts";
import { createRateLimiter } from "./create.ts";
import type { RateLimiter } from "./limiter.ts";

/**
 * The failure policy against real sockets: a Redis that never answers, one that goes silent
 * after connecting, one that is not there yet at start, and a real redis-server stopped with
 * SIGSTOP (the process freezes, its connections stay open: the case with no error to react to).
 *
 * Held on a loaded 2-core machine, where any step can wait seconds for a core: the timeouts are
 * long enough that a healthy Redis never misses them, and "did not wait" is proven by what Redis
 * received or by the order of events, not by a stopwatch. The timeout's arithmetic (a request
 * waits at most the timeout, a tripped breaker adds no timer) is tested with a hand-driven clock
 * in resilient-store.test.ts.
 */

/** For the silent stand-ins: every request sent to them waits this long, then counts locally. */
const SILENT_TIMEOUT_MS = 2_000;
/** For a real redis-server: far above any answer a healthy one gives, even on a loaded machine. */
const REDIS_TIMEOUT_MS = 2_000;
const policy = { limit: 60, windowSeconds: 60 };

/**
 * A TCP server on loopback that accepts connections and never writes a byte (but the answer to
 * ioredis's ready check when `answerHandshake`). It keeps what it received: `received(key)` counts
 * the commands that named a rate-limit key.
 */
async function silentServer(answerHandshake = false) {
  const sockets = new Set<Socket>();
  let received = "";
  const arrivals = new Set<() => void>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      for (const wake of arrivals) wake();
    });
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
  const count = (key: string) => received.split(`dealkit:ratelimit:${key}`).length - 1;
  return {
    url: `redis://127.0.0.1:${port}`,
    received: count,
    /** Resolves once the commands naming `key` number more than `n`. */
    receivedMoreThan: (key: string, n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (count(key) <= n) return;
          arrivals.delete(check);
          resolve();
        };
        arrivals.add(check);
        check();
      }),
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

async function eventually(what: string, check: () => Promise<boolean>, withinMs = 30_000): Promise<void> {
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

/** The store the app's health endpoint reports: "shared" or "local". */
async function storeOf(send: Transport): Promise<string> {
  return (bodyOf(await send("/healthz")) as { rateLimit: { store: string } }).rateLimit.store;
}

describe("rate-limit store when Redis does not answer (no redis-server needed)", () => {
  it("a Redis that accepts and never answers: the server starts on memory and limits per instance", async () => {
    const silent = await silentServer();
    let app: BuiltApp | undefined;
    try {
      app = await testApp({ redisUrl: silent.url, redisTimeoutMs: SILENT_TIMEOUT_MS });
      const send = injectTransport(app.app);
      // In memory from the start: requests go straight to it, no Redis call and no timer on their
      // way (the open breaker's promise, resilient-store.test.ts).
      expect(await storeOf(send)).toBe("local");
      for (let i = 0; i < 60; i++)
        expect((await send("/api/v1/meta", { from: "127.0.0.40" })).status).toBe(200);
      expect((await send("/api/v1/meta", { from: "127.0.0.40" })).status).toBe(429);
      expect(silent.received("127.0.0.40")).toBe(0);
      expect(await storeOf(send)).toBe("local");
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
      limiter = await createRateLimiter({ policy, redisUrl: silent.url, redisTimeoutMs: SILENT_TIMEOUT_MS });
      expect(limiter.storeState().mode).toBe("shared");
      const l = limiter;
      const first = await Promise.all(
        Array.from({ length: 50 }, () => timed(() => l.hit("10.0.0.1", NOW_MS))),
      );
      // Each was sent to Redis, waited for the timeout (a timer never fires early), then counted
      // locally; together, not one after another (in turn they would take 50 timeouts).
      await silent.receivedMoreThan("10.0.0.1", 49);
      expect(Math.min(...first.map((r) => r.ms))).toBeGreaterThanOrEqual(SILENT_TIMEOUT_MS - 5);
      expect(Math.max(...first.map((r) => r.ms))).toBeLessThan(5 * SILENT_TIMEOUT_MS);
      expect(first.map((r) => r.value.remaining).sort((a, b) => b - a)).toEqual(
        Array.from({ length: 50 }, (_, i) => 59 - i),
      );
      const state = limiter.storeState();
      expect(state).toMatchObject({ mode: "local", sharedConfigured: true });
      expect(state.lastError).toBe(
        `Redis at 127.0.0.1:${new URL(silent.url).port} did not answer within ${SILENT_TIMEOUT_MS} ms`,
      );
      // The breaker is open: a later request is counted locally and never sent. Proven by order,
      // not by a stopwatch: the next probe travels the same connection after it, so once the
      // probe has arrived, anything the request had sent would have arrived before it.
      const probes = silent.received("probe");
      expect((await l.hit("10.0.0.1", NOW_MS)).remaining).toBe(9);
      await silent.receivedMoreThan("probe", probes);
      expect(silent.received("10.0.0.1")).toBe(50);
      expect(switchLines(stderr)).toHaveLength(1);
    } finally {
      await limiter?.close();
      await silent.close();
    }
  });
});

const available = requireTool({
  name: "redis-server",
  available: redisAvailable(),
  install: "apt-get install -y redis-server",
  needs: "the Redis failover tests",
});

describe.runIf(available)("rate-limit store with a real redis-server that comes and goes", () => {
  it("Redis absent at start: both instances start on memory, then share counts once Redis appears", async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    let a: BuiltApp | undefined;
    let b: BuiltApp | undefined;
    let redis: RedisServer | undefined;
    let admin: Redis | undefined;
    try {
      a = await testApp({ redisUrl: url, redisTimeoutMs: REDIS_TIMEOUT_MS });
      b = await testApp({ redisUrl: url, redisTimeoutMs: REDIS_TIMEOUT_MS });
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
      // Rejoined within seconds (longest probe delay 2 s + ioredis's reconnect delay, at most
      // 1 s), not at the next restart: bounded loosely, as a loaded machine may add seconds.
      expect(Date.now() - appeared).toBeLessThan(20_000);
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
  }, 60_000);

  it("a busy event loop is not mistaken for a stalled Redis", async () => {
    const redis = await startRedis();
    let limiter: RateLimiter | undefined;
    try {
      limiter = await createRateLimiter({ policy, redisUrl: redis.url, redisTimeoutMs: REDIS_TIMEOUT_MS });
      await limiter.hit("10.0.0.2", NOW_MS);
      const pending = limiter.hit("10.0.0.2", NOW_MS);
      // Blocks the process past the timeout: Redis (another process) answers meanwhile.
      const until = Date.now() + 1.5 * REDIS_TIMEOUT_MS;
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
      a = await testApp({ redisUrl: redis.url, redisTimeoutMs: REDIS_TIMEOUT_MS });
      b = await testApp({ redisUrl: redis.url, redisTimeoutMs: REDIS_TIMEOUT_MS });
      const [toA, toB] = [injectTransport(a.app), injectTransport(b.app)];
      expect(await alternate([toA, toB], "127.0.0.60", 4)).toEqual(countdown(59, 4));

      redis.freeze();
      const stoppedAt = Date.now();
      // Concurrent requests on both instances, all answered while Redis is still frozen (it is
      // thawed only after them): none waits for Redis, only for the timeout.
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? toA : toB)("/api/v1/meta", { from: `127.0.2.${i}` })),
      );
      for (const reply of burst) expect(reply.status).toBe(200);
      // Limited per instance meanwhile: a refuses the 61st of a client, b still lets it in.
      expect(await alternate([toA], "127.0.0.61", 61)).toEqual([...countdown(59, 60), "429"]);
      expect(await alternate([toB], "127.0.0.61", 1)).toEqual(["59"]);
      const local = switchLines(stderr);
      expect(local).toHaveLength(2);
      for (const line of local)
        expect(line).toContain(
          `failed (Redis at 127.0.0.1:${redis.port} did not answer within ${REDIS_TIMEOUT_MS} ms)`,
        );
      // Stay stopped for 3 s in all (beyond the timeout), then continue.
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
  }, 60_000);
});
