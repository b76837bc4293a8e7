import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../index.ts";
import { injectTransport, NOW_MS, testApp } from "../test/helpers.ts";

function redisBinary(): string | undefined {
  try {
    return execFileSync("which", ["redis-server"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function waitForRedis(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => {}); // refused while the server starts: retried below
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`redis-server did not answer at ${url}`);
}

const binary = redisBinary();
if (!binary)
  console.warn("SKIPPED redis rate-limit test: no redis-server binary (apt-get install -y redis-server)");

/** Two instances behind one address share each client's window through one Redis. */
describe.skipIf(!binary)("rate limit shared through Redis", () => {
  let redis: ChildProcess;
  let dir: string;
  let url: string;
  let a: BuiltApp;
  let b: BuiltApp;
  let now = NOW_MS;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "dealkit-redis-"));
    const port = await freePort();
    redis = spawn(
      binary as string,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      {
        stdio: "ignore",
      },
    );
    url = `redis://127.0.0.1:${port}`;
    await waitForRedis(url);
    a = await testApp({ size: 200, redisUrl: url, now: () => now });
    b = await testApp({ size: 200, redisUrl: url, now: () => now });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    redis?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses the 61st request across both instances", async () => {
    const toA = injectTransport(a.app);
    const toB = injectTransport(b.app);
    const from = "127.0.0.20";
    for (let i = 0; i < 60; i++) {
      now = NOW_MS + i * 100;
      const reply = await (i % 2 === 0 ? toA : toB)("/api/v1/meta", { from });
      expect(reply.status).toBe(200);
      expect(reply.headers["ratelimit-remaining"]).toBe(String(59 - i));
    }
    now = NOW_MS + 10_000;
    for (const send of [toA, toB]) {
      const refused = await send("/api/v1/meta", { from });
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toBe("50");
    }
    // Another client is not affected, and the window slides on both instances alike.
    expect((await toB("/api/v1/meta", { from: "127.0.0.21" })).status).toBe(200);
    now = NOW_MS + 60_000;
    expect((await toB("/api/v1/meta", { from })).status).toBe(200);
    expect((await toA("/api/v1/meta", { from })).status).toBe(429);
  });

  it("counts concurrent requests atomically: exactly 60 of 100 are let in", async () => {
    now = NOW_MS + 10 * 60_000;
    const from = "127.0.0.22";
    const sends = [injectTransport(a.app), injectTransport(b.app)];
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (sends[i % 2] as (typeof sends)[0])("/api/v1/meta", { from })),
    );
    expect(replies.filter((r) => r.status === 200).length).toBe(60);
  });

  it("keeps counting after Redis forgets its scripts (a restart, SCRIPT FLUSH)", async () => {
    now = NOW_MS + 20 * 60_000;
    const admin = new Redis(url);
    try {
      await admin.script("FLUSH");
      const send = injectTransport(a.app);
      const reply = await send("/api/v1/meta", { from: "127.0.0.23" });
      expect(reply.status).toBe(200);
      expect(reply.headers["ratelimit-remaining"]).toBe("59");
      // Counted in Redis, not in the local fallback store.
      expect(await admin.zcard("dealkit:ratelimit:127.0.0.23")).toBe(1);
    } finally {
      admin.disconnect();
    }
  });
});
