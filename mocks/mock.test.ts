import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDealClient } from "../src/client/client.ts";
import { loadSpec } from "../src/spec/load.ts";
import type { Spec } from "../src/spec/spec.ts";
import { DEFAULT_DEMO_ACCOUNT } from "./auth.ts";
import { type Got, httpGet } from "./http-get.ts";
import { type RunningMock, startMock } from "./start.ts";

// One Prism for the whole file (it takes ~3 s to start on two shared cores). The layer's clock
// is injected: the rate-limit tests move it instead of waiting a minute.
let mock: RunningMock;
let spec: Spec;
let clock = Date.now();
const KEY = { "x-api-key": DEFAULT_DEMO_ACCOUNT.apiKey };

beforeAll(async () => {
  spec = await loadSpec();
  mock = await startMock({ port: 0, now: () => clock });
});
afterAll(async () => {
  await mock?.close();
});

/** A fresh minute for the next test: the limiter forgets every earlier request. */
function nextMinute() {
  clock += (spec.rateLimit.window_seconds + 1) * 1000;
}

const get = (path: string, headers: Record<string, string> = {}, localAddress?: string) =>
  httpGet(mock.url + path, { headers, localAddress });

function expectCors(res: Got) {
  expect(res.headers["access-control-allow-origin"]).toBe(spec.cors.allow_origin);
  for (const h of spec.cors.expose_headers) expect(res.headers["access-control-expose-headers"]).toContain(h);
  for (const h of spec.rateLimit.headers) expect(res.headers[h.toLowerCase()]).toMatch(/^[0-9]+$/);
}

function expectProblem(res: Got, status: number, type?: string, param?: string) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = res.json() as { type: string; errors?: { name: string }[] };
  const schemas = (spec.doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
  const validate = spec.schemaValidator(schemas.Problem ?? {});
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  if (type) expect(body.type).toBe(`/problems/${type}`);
  if (param) expect(body.errors?.map((e) => e.name)).toContain(param);
  expectCors(res);
}

describe("dealkit mock (Prism + rule layer)", () => {
  it("answers every spec path with a spec-valid body and the CORS and RateLimit headers", async () => {
    nextMinute();
    const requests: Record<string, [string, Record<string, string>?]> = {
      getMeta: ["/api/v1/meta"],
      getRank: ["/api/v1/rank?act=jintian"],
      getFeed: ["/api/v1/feed"],
      searchAlerts: ["/api/v1/search?q=%E7%BA%A2%E5%8C%85"],
      listActivities: ["/api/v1/shenghuo?with_cates=1"],
      getRss: ["/rss.php"],
      getMyFollowHits: [`/api/v1/my/follow?uid=${DEFAULT_DEMO_ACCOUNT.uid}`, KEY],
      getMyPushHits: [`/api/v1/my/push?uid=${DEFAULT_DEMO_ACCOUNT.uid}`, KEY],
      getLegacyRankFile: ["/plus/json/rank/yixiaoshi.json"],
    };
    expect(Object.keys(requests).sort()).toEqual(spec.operations.map((o) => o.operationId).sort());
    for (const [operationId, [path, headers]] of Object.entries(requests)) {
      const res = await get(path, headers);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      const media = Object.keys(spec.response(operationId, 200)?.content ?? {})[0] ?? "";
      expect(res.headers["content-type"]).toBe(`${media}; charset=utf-8`);
      const validate = spec.responseValidator(operationId, 200, media);
      const body = media.includes("json") ? res.json() : res.text;
      expect(validate?.(body), `${path}: ${JSON.stringify(validate?.errors)}`).toBe(true);
      expectCors(res);
    }
  });

  const refusals: [string, { path: string; status: number; type: string; param: string }][] = [
    [
      "out-of-range limit",
      { path: "/api/v1/rank?act=jintian&limit=301", status: 400, type: "invalid-parameter", param: "limit" },
    ],
    ["missing act", { path: "/api/v1/rank", status: 400, type: "invalid-parameter", param: "act" }],
    [
      "unknown legacy act",
      { path: "/plus/json/rank/nope.json", status: 400, type: "invalid-parameter", param: "act" },
    ],
    [
      "limit given twice",
      { path: "/api/v1/feed?limit=1&limit=2", status: 400, type: "invalid-parameter", param: "limit" },
    ],
    [
      "unknown cate",
      { path: "/api/v1/feed?cate=nope", status: 400, type: "invalid-parameter", param: "cate" },
    ],
    [
      "cate with type=zdm",
      { path: "/api/v1/feed?type=zdm&cate=weibo", status: 400, type: "invalid-parameter", param: "cate" },
    ],
    [
      "search without criterion",
      {
        path: "/api/v1/search?q=%7C%23&cate=weibo",
        status: 400,
        type: "missing-search-criterion",
        param: "q",
      },
    ],
    [
      "mip above mxp",
      { path: "/api/v1/search?mip=10&mxp=5", status: 400, type: "invalid-parameter", param: "mip" },
    ],
    [
      "pageSize 0",
      { path: "/api/v1/shenghuo?pageSize=0", status: 400, type: "invalid-parameter", param: "pageSize" },
    ],
  ];
  it.each(refusals)("refuses %s with the API's problem+json naming the parameter", async (_, c) => {
    expectProblem(await get(c.path), c.status, c.type, c.param);
  });

  it("shows data to the README's typed-client calls and the issue's typical screens", async () => {
    nextMinute();
    // The README's examples (README.md, src/client/README.md), against the mock.
    const api = createDealClient({ baseUrl: mock.url, apiKey: KEY["x-api-key"], retry: { maxRetries: 3 } });
    expect((await api.rank({ act: "yixiaoshi" })).data.length).toBeGreaterThan(0);
    const wide = await api.rank({ act: "yixiaoshi", limit: 60 });
    expect(wide.data.every((a) => typeof a.content === "string")).toBe(true);
    // A list, a pager, a price filter, a "content above limit 50" view, shenghuo's second page.
    const common = await api.search({ q: "券" });
    expect(common.meta.total).toBeGreaterThan(2 * common.meta.limit);
    expect((await api.search({ q: "券", page: 2 })).data).toHaveLength(common.meta.limit);
    const priced = await api.search({ mip: 1, mxp: 100 });
    expect(priced.data.length).toBeGreaterThan(0);
    for (const a of priced.data) expect(a.price).toBeGreaterThanOrEqual(1);
    const jintian = await api.rank({ act: "zuotian", limit: 51 });
    expect(jintian.data.length).toBeGreaterThan(0);
    expect(jintian.data.every((a) => typeof a.content === "string")).toBe(true);
    expect((await api.shenghuo({ page: 2 })).data.length).toBeGreaterThan(0);
    expect((await api.feed({ limit: 50 })).data).toHaveLength(20);
    expect((await api.myFollow({ uid: DEFAULT_DEMO_ACCOUNT.uid })).data.length).toBeGreaterThan(0);
  });

  it("ignores unknown parameters and treats empty values as absent", async () => {
    const res = await get("/api/v1/feed?limit=&page=3&foo=bar");
    expect(res.status).toBe(200);
    expect((res.json() as { meta: { limit: number } }).meta.limit).toBe(20);
  });

  it("gives one identical 401 for a missing key, a wrong key and an unknown uid", async () => {
    const uid = DEFAULT_DEMO_ACCOUNT.uid;
    const answers = await Promise.all([
      get(`/api/v1/my/push?uid=${uid}`),
      get(`/api/v1/my/push?uid=${uid}`, { "x-api-key": "f".repeat(32) }),
      get(`/api/v1/my/push?uid=${uid + 1}`, KEY),
      get(`/api/v1/my/push?uid=0${uid}`, KEY),
    ]);
    for (const res of answers) expectProblem(res, 401, "unauthorized");
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
  });

  it("answers a CORS preflight with 204 and the x-cors policy", async () => {
    const res = await httpGet(`${mock.url}/api/v1/my/follow`, { method: "OPTIONS" });
    expect(res.status).toBe(spec.cors.preflight.status);
    expect(res.headers["access-control-allow-methods"]).toBe(spec.cors.preflight.allow_methods.join(", "));
    expect(res.headers["access-control-allow-headers"]).toContain("X-API-Key");
    // Prefer (the mock's way to force an error) is allowed, so a page on another origin can send it.
    expect(res.headers["access-control-allow-headers"]).toMatch(/\bPrefer\b/);
    expect(res.headers["access-control-max-age"]).toBe(String(spec.cors.preflight.max_age_seconds));
  });

  it("answers unknown paths with 404 and other methods with 405, as problems", async () => {
    expectProblem(await get("/api/v2/rank"), 404, "not-found");
    const post = await httpGet(`${mock.url}/api/v1/meta`, { method: "POST" });
    expectProblem(post, 405, "method-not-allowed");
    expect(post.headers.allow).toBe(spec.methods.allow.join(", "));
  });

  it("answers HEAD as GET without a body, any OPTIONS on a known path 204 with Allow, elsewhere 404 (x-methods)", async () => {
    const [getMeta, head] = [
      await get("/api/v1/meta"),
      await httpGet(`${mock.url}/api/v1/meta`, { method: "HEAD" }),
    ];
    expect(head.status).toBe(getMeta.status);
    expect(head.text).toBe("");
    expect(head.headers["content-type"]).toBe(getMeta.headers["content-type"]);
    const plain = await httpGet(`${mock.url}/api/v1/search`, { method: "OPTIONS" });
    expect(plain.status).toBe(spec.methods.options.status);
    expect(plain.headers.allow).toBe(spec.methods.allow.join(", "));
    expectProblem(await httpGet(`${mock.url}/api/v1/nope`, { method: "OPTIONS" }), 404, "not-found");
  });

  const forced: [string, { path: string; headers?: Record<string, string>; status: number; type: string }][] =
    [
      ["429 with Retry-After", { path: "/api/v1/meta", status: 429, type: "rate-limited" }],
      [
        "400 on a valid request",
        { path: "/api/v1/rank?act=jintian", status: 400, type: "invalid-parameter" },
      ],
      [
        "401 with valid credentials",
        {
          path: `/api/v1/my/follow?uid=${DEFAULT_DEMO_ACCOUNT.uid}`,
          headers: KEY,
          status: 401,
          type: "unauthorized",
        },
      ],
    ];
  it.each(forced)("lets Prefer: code= force a %s", async (_, c) => {
    const res = await get(c.path, { ...c.headers, prefer: `code=${c.status}` });
    expectProblem(res, c.status, c.type);
    if (c.status === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });

  // Regression: Prism's example said 17 s in the body while its header said 1.
  it.each([
    ["from a client with requests left: the schema's minimum", { sentBefore: () => 0, wait: () => 1 }],
    [
      "from a client whose window is full: until a slot frees",
      { sentBefore: () => spec.rateLimit.limit, wait: () => spec.rateLimit.window_seconds },
    ],
  ])("a forced 429 %s, one value in Retry-After and in its detail", async (_, { sentBefore, wait }) => {
    nextMinute();
    const address = "127.0.0.3";
    for (let i = 0; i < sentBefore(); i++) expect((await get("/api/v1/meta", {}, address)).status).toBe(200);
    const res = await get("/api/v1/meta", { prefer: "code=429" }, address);
    expectProblem(res, 429, "rate-limited");
    expect(res.headers["retry-after"]).toBe(String(wait()));
    expect((res.json() as { detail: string }).detail).toMatch(
      new RegExp(`retry after ${wait()} seconds?\\.`),
    );
  });

  it("limits each client IP to 60 requests per sliding minute, with Retry-After and a problem body", async () => {
    nextMinute();
    const { limit, window_seconds } = spec.rateLimit;
    const remaining: number[] = [];
    for (let i = 0; i < limit; i++) {
      const res = await get("/api/v1/meta");
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers["ratelimit-remaining"]));
    }
    expect(remaining.at(0)).toBe(limit - 1);
    expect(remaining.at(-1)).toBe(0);
    const refused = await get("/api/v1/meta");
    expectProblem(refused, 429, "rate-limited");
    expect(Number(refused.headers["retry-after"])).toBe(window_seconds);
    // Another source address is another client, with its own budget.
    expect((await get("/api/v1/meta", {}, "127.0.0.2")).status).toBe(200);
    // A forced 429 is not counted either, and waiting Retry-After is enough.
    clock += window_seconds * 1000;
    expect((await get("/api/v1/meta")).status).toBe(200);
  });
});
