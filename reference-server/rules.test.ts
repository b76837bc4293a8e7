import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRule, conditionHolds } from "../src/rules/evaluate.ts";
import { type Spec, withRateLimit } from "../src/spec/spec.ts";
import type { BuiltApp } from "./index.ts";
import { cases } from "./test/cases.ts";
import {
  bodyOf,
  injectTransport,
  ruleExchange,
  socketTransport,
  specViolations,
  type Transport,
  testApp,
} from "./test/helpers.ts";

/**
 * Every x-conformance rule of every operation, judged by the spec library's own rule engine on
 * a table of requests, and every response validated against the spec, both in process and
 * over a real loopback socket.
 */
describe.each(["inject", "socket"] as const)("every rule and schema holds (%s)", (mode) => {
  let built: BuiltApp;
  let spec: Spec;
  let send: Transport;

  beforeAll(async () => {
    // A limit no table can reach: this file is about the other rules (see ratelimit.test.ts).
    // The manifest states that limit, so the rules judge against it.
    built = await testApp({ rateLimit: { limit: 100_000 } });
    spec = withRateLimit(built.spec, { limit: 100_000, windowSeconds: built.spec.rateLimit.window_seconds });
    if (mode === "inject") send = injectTransport(built.app);
    else {
      const url = await built.app.listen({ port: 0, host: "127.0.0.1" });
      send = socketTransport(url);
    }
  });
  afterAll(() => built.close());

  it("answers each case with the expected status, a valid body and documented headers, breaking no rule", async () => {
    const exercised = new Set<string>();
    for (const c of cases(spec)) {
      const reply = await send(c.url, { headers: c.headers });
      expect.soft(reply.status, c.url).toBe(c.status);
      expect.soft(specViolations(spec, c.url, reply), c.url).toEqual([]);
      expect.soft(reply.headers["access-control-allow-origin"], c.url).toBe("*");
      const match = spec.match(c.url.split("?")[0] ?? "");
      if (!match) continue;
      const exchange = ruleExchange(spec, match.operation, c.url, reply, c.credentials);
      for (const rule of match.operation.rules) {
        // A rule demanding a 2xx speaks of valid requests; a request refused for another reason is judged by the refusing rules.
        if (c.status >= 400 && (rule.then.status ?? 200) < 400) continue;
        if (conditionHolds(spec, match.operation, rule.when, exchange.request, c.credentials))
          exercised.add(rule.id);
        expect.soft(checkRule(spec, rule, exchange), `${rule.id} on ${c.url}`).toEqual([]);
      }
    }
    const all = spec.rules().map(({ rule }) => rule.id);
    expect(all.filter((id) => !exercised.has(id))).toEqual([]);
  });

  it("has data behind the rules: rank windows, searches and feeds are not vacuously empty", async () => {
    const nonEmpty = async (url: string) =>
      ((bodyOf(await send(url)) as { data: unknown[] }).data ?? []).length;
    for (const act of Object.keys(spec.rankWindows.windows)) {
      expect(await nonEmpty(`/api/v1/rank?act=${act}`), act).toBeGreaterThan(0);
    }
    expect(await nonEmpty(`/api/v1/search?q=${encodeURIComponent("京东")}`)).toBeGreaterThan(0);
    expect(await nonEmpty("/api/v1/search?mip=10&mxp=100")).toBeGreaterThan(0);
    expect(await nonEmpty("/api/v1/feed?type=zdm&limit=50")).toBe(30);
    expect(await nonEmpty("/api/v1/feed?cate=weibo&limit=50")).toBe(20);
    expect(await nonEmpty("/api/v1/shenghuo?q=%E5%A4%96%E5%8D%96")).toBeGreaterThan(0);
  });

  it("ignores page on the feed (feed-snapshot-no-paging)", async () => {
    for (const base of ["/api/v1/feed?limit=50", "/api/v1/feed?type=zdm", "/api/v1/feed?cate=weibo"]) {
      const a = await send(base);
      const b = await send(`${base}&page=2`);
      expect(b.text, base).toBe(a.text);
    }
  });

  it("answers one identical 401 for a missing key, a wrong key and an unknown uid", async () => {
    for (const path of ["/api/v1/my/follow", "/api/v1/my/push"]) {
      const bodies = new Set<string>();
      for (const c of cases(spec).filter((x) => x.url.startsWith(path) && x.credentials === "invalid")) {
        bodies.add((await send(c.url, { headers: c.headers })).text);
      }
      expect(bodies.size, path).toBe(1);
    }
  });

  it("orders rank by comments then newest, and states the window it used", async () => {
    const body = bodyOf(await send("/api/v1/rank?act=zuotian&limit=300")) as {
      data: { comments: number; shijianchuo: number }[];
      meta: { window: { from: number; to: number } };
    };
    // zuotian = 2026-11-24 in Asia/Shanghai = [2026-11-23T16:00Z, 2026-11-24T15:59:59Z].
    expect(body.meta.window).toMatchObject({
      from: Date.UTC(2026, 10, 23, 16) / 1000,
      to: Date.UTC(2026, 10, 24, 16) / 1000 - 1,
    });
    expect(body.data.length).toBeGreaterThan(1);
  });

  it("serves RSS 2.0 with escaped text", async () => {
    const reply = await send("/rss.php?q=%E4%BA%AC%E4%B8%9C");
    expect(reply.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
    expect(reply.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0">/);
    expect(reply.text.match(/<item>/g)?.length).toBe(20);
    expect(reply.text).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
  });

  it("answers unknown paths 404 and other methods 405, as problems with CORS", async () => {
    for (const [method, url, status] of [
      ["GET", "/nope", 404],
      ["GET", "/api/v1/meta/", 404],
      ["POST", "/api/v1/meta", 405],
      ["DELETE", "/api/v1/search?q=a", 405],
      ["GET", "/%zz", 400],
      ["OPTIONS", "/nope", 404],
    ] as const) {
      const reply = await send(url, { method });
      expect(reply.status, `${method} ${url}`).toBe(status);
      expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(reply.headers["access-control-allow-origin"]).toBe("*");
      expect(reply.headers["ratelimit-limit"]).toBeDefined();
      expect((bodyOf(reply) as { status: number }).status).toBe(status);
      if (status === 405) expect(reply.headers.allow).toBe("GET, HEAD, OPTIONS");
    }
  });

  it("answers HEAD as GET without a body, and a plain OPTIONS 204 with Allow (x-methods)", async () => {
    for (const url of ["/api/v1/meta", "/api/v1/rank?act=nope", "/api/v1/my/push?uid=1"]) {
      const [get, head] = [await send(url), await send(url, { method: "HEAD" })];
      expect(head.status, url).toBe(get.status);
      expect(head.text, url).toBe("");
      for (const name of ["content-type", "cache-control", "access-control-allow-origin", "ratelimit-limit"])
        expect(head.headers[name], `${url} ${name}`).toBe(get.headers[name]);
    }
    const plain = await send("/api/v1/search", { method: "OPTIONS" });
    expect(plain.status).toBe(204);
    expect(plain.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(plain.headers["ratelimit-limit"]).toBeDefined();
  });
});
