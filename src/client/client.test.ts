import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDealClient } from "./client.ts";
import { DealApiError } from "./errors.ts";
import { fakeClock } from "./fake-clock.ts";
import { retryAfterSeconds } from "./retry.ts";

/** A scripted fake API on loopback: each request takes the next answer of the script. */
interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}
let script: Scripted[] = [];
let seen: { url: string; headers: Record<string, unknown> }[] = [];
let server: Server;
let baseUrl: string;

const ok: Scripted = { status: 200, body: { data: [], meta: { act: "jintian", limit: 20, count: 0 } } };
const tooMany = (retryAfter?: string): Scripted => ({
  status: 429,
  headers: retryAfter === undefined ? {} : { "retry-after": retryAfter },
  body: { type: "/problems/rate-limited", title: "Too many requests", status: 429, detail: "wait" },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    const next = script.shift() ?? {
      status: 500,
      body: { type: "/problems/internal", title: "script ran out", status: 500, detail: "" },
    };
    const type = next.status >= 400 ? "application/problem+json" : "application/json";
    res.writeHead(next.status, { "content-type": type, ...next.headers });
    res.end(JSON.stringify(next.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

describe("client on 429", () => {
  it("waits Retry-After before each retry, then returns the data", async () => {
    const clock = fakeClock();
    script = [tooMany("7"), tooMany("2"), ok];
    const client = createDealClient({ baseUrl, clock });
    const body = await client.rank({ act: "jintian" });
    expect(body.meta.act).toBe("jintian");
    expect(clock.sleeps).toEqual([7000, 2000]);
    expect(seen).toHaveLength(3);
  });

  it("never retries at once: a 429 without Retry-After (or with 0) still waits a second", async () => {
    const clock = fakeClock();
    script = [tooMany(), tooMany("0"), ok];
    await createDealClient({ baseUrl, clock }).rank({ act: "jintian" });
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  const bounds: [
    string,
    { retry: { maxRetries?: number; maxWaitSeconds?: number }; retryAfter: string[]; sleeps: number[] },
  ][] = [
    ["maxRetries 0 surfaces the first 429", { retry: { maxRetries: 0 }, retryAfter: ["5"], sleeps: [] }],
    [
      "maxRetries 2 waits twice, then surfaces the third 429",
      { retry: { maxRetries: 2 }, retryAfter: ["1", "1", "9"], sleeps: [1000, 1000] },
    ],
    [
      "maxWaitSeconds stops before a wait that would pass it",
      { retry: { maxWaitSeconds: 10 }, retryAfter: ["6", "6"], sleeps: [6000] },
    ],
  ];
  it.each(bounds)("%s, as a DealApiError with the problem body and Retry-After", async (_, c) => {
    const clock = fakeClock();
    script = c.retryAfter.map((s) => tooMany(s));
    const err = await createDealClient({ baseUrl, clock, retry: c.retry })
      .rank({ act: "jintian" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DealApiError);
    expect(err).toMatchObject({
      status: 429,
      type: "/problems/rate-limited",
      retryAfterSeconds: Number(c.retryAfter.at(-1)),
    });
    expect(clock.sleeps).toEqual(c.sleeps);
  });

  it("reads Retry-After as an HTTP date too", () => {
    const now = Date.parse("2026-11-26T00:00:00Z");
    expect(retryAfterSeconds("Thu, 26 Nov 2026 00:00:30 GMT", now)).toBe(30);
    expect(retryAfterSeconds("12", now)).toBe(12);
    expect(retryAfterSeconds("soon", now)).toBe(1);
  });
});

describe("client errors and calls", () => {
  it("surfaces a 400 problem body as a typed error", async () => {
    const problem = {
      type: "/problems/invalid-parameter",
      title: "Invalid request parameter",
      status: 400,
      detail: "limit: must be <= 300",
      errors: [{ in: "query", name: "limit", reason: "must be <= 300" }],
    };
    script = [{ status: 400, body: problem }];
    const err = await createDealClient({ baseUrl })
      .rank({ act: "jintian", limit: 301 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DealApiError);
    expect(err).toMatchObject({
      status: 400,
      type: problem.type,
      title: problem.title,
      detail: problem.detail,
      errors: problem.errors,
    });
    expect(seen[0]?.url).toBe("/api/v1/rank?act=jintian&limit=301");
  });

  it("sends the API key header and uid to the personal streams, and refuses without a key", async () => {
    script = [{ status: 200, body: { data: [], meta: { uid: 7, limit: 20, count: 0 } } }];
    const client = createDealClient({ baseUrl, apiKey: "a".repeat(32) });
    await client.myPush({ uid: 7 });
    expect(seen[0]).toMatchObject({ url: "/api/v1/my/push?uid=7", headers: { "x-api-key": "a".repeat(32) } });
    expect(() => createDealClient({ baseUrl }).myFollow({ uid: 7 })).toThrow(/apiKey/);
  });
});

describe("client pacing", () => {
  it("spaces requests at the advertised rate, without a single 429", async () => {
    const clock = fakeClock();
    script = Array.from({ length: 5 }, () => ok);
    const client = createDealClient({ baseUrl, clock, pacing: { limit: 2, windowSeconds: 10 } });
    for (let i = 0; i < 5; i++) await client.rank({ act: "jintian" });
    // Requests 3 and 5 wait for the oldest of the last two to leave the 10 s window.
    expect(clock.sleeps).toEqual([10_000, 10_000]);
  });

  it("reads the rate from the target's /api/v1/meta, counting that request", async () => {
    const clock = fakeClock();
    const manifest = {
      data: { rate_limit: { limit: 2, window_seconds: 30, scope: "client-ip" } },
      meta: { generated_at: 0 },
    };
    script = [{ status: 200, body: manifest }, ok, ok];
    const client = createDealClient({ baseUrl, clock, pacing: "meta" });
    await client.rank({ act: "jintian" });
    await client.rank({ act: "jintian" });
    expect(seen.map((s) => s.url)).toEqual([
      "/api/v1/meta",
      "/api/v1/rank?act=jintian",
      "/api/v1/rank?act=jintian",
    ]);
    expect(clock.sleeps).toEqual([30_000]);
  });

  const manifest = {
    data: { rate_limit: { limit: 2, window_seconds: 30, scope: "client-ip" } },
    meta: { generated_at: 0 },
  };

  it("waits Retry-After when the manifest request itself is refused", async () => {
    const clock = fakeClock();
    script = [tooMany("5"), { status: 200, body: manifest }, ok];
    const client = createDealClient({ baseUrl, clock, pacing: "meta", retry: { maxRetries: 3 } });
    const body = await client.rank({ act: "jintian" });
    expect(body.meta.act).toBe("jintian");
    expect(clock.sleeps).toEqual([5000]);
    expect(seen.map((s) => s.url)).toEqual(["/api/v1/meta", "/api/v1/meta", "/api/v1/rank?act=jintian"]);
  });

  it("a client built while limited is not stuck: the next call asks for the manifest again", async () => {
    const clock = fakeClock();
    script = [tooMany("9")];
    const client = createDealClient({ baseUrl, clock, pacing: "meta", retry: { maxRetries: 0 } });
    const refused = await client.rank({ act: "jintian" }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DealApiError);
    // The refused manifest's problem is read as any call's is: its type, not about:blank.
    expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 9, type: "/problems/rate-limited" });
    script = [{ status: 200, body: manifest }, ok];
    await expect(client.rank({ act: "jintian" })).resolves.toMatchObject({ meta: { act: "jintian" } });
    expect(seen.map((s) => s.url)).toEqual(["/api/v1/meta", "/api/v1/meta", "/api/v1/rank?act=jintian"]);
  });
});
