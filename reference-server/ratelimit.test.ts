import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "./index.ts";
import {
  bodyOf,
  injectTransport,
  NOW_MS,
  socketTransport,
  specViolations,
  type Transport,
  testApp,
} from "./test/helpers.ts";

/** The x-rate-limit rules through the whole app, on an injected clock (no sleeping). */
describe.each(["inject", "socket"] as const)("rate limit per client IP (%s)", (mode) => {
  let built: BuiltApp;
  let send: Transport;
  let now = NOW_MS;

  beforeAll(async () => {
    built = await testApp({ size: 300, now: () => now, trustedProxies: ["127.0.0.9"] });
    if (mode === "inject") send = injectTransport(built.app);
    else send = socketTransport(await built.app.listen({ port: 0, host: "127.0.0.1" }));
  });
  afterAll(() => built.close());

  it("refuses the 61st request of a minute with 429, Retry-After, a problem body and CORS", async () => {
    now = NOW_MS;
    const from = "127.0.0.2";
    const urls = ["/api/v1/meta", "/api/v1/feed", "/nope", "/api/v1/rank?act=bad"];
    for (let i = 0; i < 60; i++) {
      now = NOW_MS + i * 500;
      const reply = await send(urls[i % urls.length] as string, { from });
      expect(reply.status).not.toBe(429);
      expect(reply.headers["ratelimit-remaining"]).toBe(String(59 - i));
    }
    now = NOW_MS + 40_000;
    const refused = await send("/api/v1/search?q=a", { from });
    expect(refused.status).toBe(429);
    // The oldest counted request (at NOW_MS) leaves the window at NOW_MS + 60 s.
    expect(refused.headers["retry-after"]).toBe("20");
    expect(refused.headers["ratelimit-reset"]).toBe("20");
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    expect(refused.headers["access-control-allow-origin"]).toBe("*");
    expect(refused.headers["access-control-expose-headers"]).toContain("Retry-After");
    expect(specViolations(built.spec, "/api/v1/search?q=a", refused)).toEqual([]);
    expect((bodyOf(refused) as { type: string }).type).toBe("/problems/rate-limited");

    // Another address is a different client.
    expect((await send("/api/v1/meta", { from: "127.0.0.3" })).status).toBe(200);
    // Preflights are answered and not counted, even when the window is full.
    const preflight = await send("/api/v1/meta", {
      from,
      method: "OPTIONS",
      headers: { origin: "https://example.org", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-methods"]).toContain("GET");
    expect(preflight.headers["access-control-max-age"]).toBe("86400");
    // One slot frees exactly when Retry-After said.
    now = NOW_MS + 40_000 + 20_000;
    expect((await send("/api/v1/meta", { from })).status).toBe(200);
    expect((await send("/api/v1/meta", { from })).status).toBe(429);
  });

  it("does not believe X-Forwarded-For from an untrusted peer", async () => {
    now = NOW_MS + 10 * 60_000;
    for (let i = 0; i < 60; i++) {
      await send("/api/v1/meta", { from: "127.0.0.4", headers: { "x-forwarded-for": `198.51.100.${i}` } });
    }
    const reply = await send("/api/v1/meta", {
      from: "127.0.0.4",
      headers: { "x-forwarded-for": "198.51.100.200" },
    });
    expect(reply.status).toBe(429);
  });

  it("counts the forwarded client behind a trusted proxy", async () => {
    now = NOW_MS + 20 * 60_000;
    const proxy = "127.0.0.9";
    for (let i = 0; i < 60; i++) {
      await send("/api/v1/meta", { from: proxy, headers: { "x-forwarded-for": "203.0.113.7" } });
    }
    const same = await send("/api/v1/meta", { from: proxy, headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(same.status).toBe(429);
    // A client cannot prepend a forged hop: only the right-most untrusted address counts.
    const forged = await send("/api/v1/meta", {
      from: proxy,
      headers: { "x-forwarded-for": "1.2.3.4, 203.0.113.7" },
    });
    expect(forged.status).toBe(429);
    const other = await send("/api/v1/meta", { from: proxy, headers: { "x-forwarded-for": "203.0.113.8" } });
    expect(other.status).toBe(200);
  });

  it("counts a trusted proxy's own requests (no X-Forwarded-For) under its address, with RateLimit-* headers; an empty header apart", async () => {
    now = NOW_MS + 30 * 60_000;
    const proxy = "127.0.0.9";
    const own = (headers: Record<string, string> = {}) => send("/api/v1/meta", { from: proxy, headers });
    const first = await own();
    expect(first.headers["ratelimit-limit"]).toBe("60");
    expect(first.headers["ratelimit-remaining"]).toBe("59");
    // Every hop one of our proxies: the left-most is the client, here the proxy itself.
    expect((await own({ "x-forwarded-for": proxy })).headers["ratelimit-remaining"]).toBe("58");
    // An empty header is one hop that is no address: a client of its own, never the proxy's bucket.
    const empty = await own({ "x-forwarded-for": "" });
    expect(empty.headers["ratelimit-remaining"]).toBe("59");
    expect((await own({ "x-forwarded-for": " , " })).headers["ratelimit-remaining"]).toBe("58");
    expect((await own()).headers["ratelimit-remaining"]).toBe("57");
  });
});
