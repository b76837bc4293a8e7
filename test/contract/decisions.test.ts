/**
 * Points an implementer could read two ways, as the spec decides them (openapi/README.md
 * "Decisions"), answered alike by the reference server and the mock's rule layer: the same
 * status, problem type, parameters named and body. Refusals happen before the mock relays to
 * Prism, so no Prism is needed here.
 */
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { createRuleLayer } from "../../mocks/rule-layer.ts";
import type { BuiltApp } from "../../reference-server/index.ts";
import { testApp } from "../../reference-server/test/helpers.ts";

const KEY = { "x-api-key": DEFAULT_DEMO_ACCOUNT.apiKey };

/** An unknown parameter padding the query to `length` characters as sent, mostly 券 (9 characters each encoded). */
function padded(length: number): string {
  const head = "pad=";
  const wide = Math.floor((length - head.length) / 9);
  return `${head}${encodeURIComponent("券".repeat(wide))}${"x".repeat(length - head.length - wide * 9)}`;
}
const UID = DEFAULT_DEMO_ACCOUNT.uid;

interface Decision {
  what: string;
  url: string;
  headers?: Record<string, string>;
  status: number;
  type: string;
  /** The parameters `errors` names, exactly. */
  names?: string[];
  /** A part of the detail the client reads. */
  detail?: string;
}

const DECISIONS: Decision[] = [
  {
    what: "a comparison with an unreadable value does not hold: only the unreadable parameter is named",
    url: "/api/v1/search?mxp=abc",
    status: 400,
    type: "invalid-parameter",
    names: ["mxp"],
  },
  {
    what: "the same for a value out of range",
    url: "/api/v1/search?q=x&mxp=-1",
    status: 400,
    type: "invalid-parameter",
    names: ["mxp"],
  },
  {
    what: "and for mip",
    url: "/api/v1/search?mip=abc&mxp=5",
    status: 400,
    type: "invalid-parameter",
    names: ["mip"],
  },
  {
    what: "a refusing rule tells the client its own reason, not the suite's summary",
    url: "/api/v1/search?mip=9&mxp=5",
    status: 400,
    type: "invalid-parameter",
    names: ["mip", "mxp"],
    detail: "mip: the range is empty: mip must not be greater than mxp",
  },
  {
    what: "cate with the zdm stream",
    url: "/api/v1/feed?type=zdm&cate=weibo",
    status: 400,
    type: "invalid-parameter",
    names: ["cate"],
    detail: "cate: cannot be combined with type=zdm",
  },
  {
    what: "a parameter given twice is a 400 even when one of the values is empty",
    url: "/api/v1/rank?act=yixiaoshi&act=",
    status: 400,
    type: "invalid-parameter",
    names: ["act"],
    detail: "act: must be given at most once",
  },
  {
    what: "credentials come first: a malformed uid with the right key is the shared 401",
    url: `/api/v1/my/follow?uid=${UID}.0`,
    headers: KEY,
    status: 401,
    type: "unauthorized",
  },
  {
    what: "a uid given twice authenticates no one",
    url: `/api/v1/my/follow?uid=${UID}&uid=${UID}`,
    headers: KEY,
    status: 401,
    type: "unauthorized",
  },
  {
    what: "without a key, a bad parameter is still the 401 (nothing is read before the credentials)",
    url: `/api/v1/my/push?uid=${UID}&limit=0`,
    status: 401,
    type: "unauthorized",
  },
  {
    what: "with good credentials, parameters are read: a bad limit is a 400",
    url: `/api/v1/my/push?uid=${UID}&limit=0`,
    headers: KEY,
    status: 400,
    type: "invalid-parameter",
    names: ["limit"],
  },
  {
    what: "the whole query string is at most 4096 characters, on every endpoint",
    url: `/api/v1/meta?x=${"a".repeat(4100)}`,
    status: 400,
    type: "invalid-parameter",
    names: ["query"],
  },
  {
    what: "the cap counts the query as sent: 4097 percent-encoded characters, under 500 once decoded",
    url: `/api/v1/feed?${padded(4097)}`,
    status: 400,
    type: "invalid-parameter",
    names: ["query"],
  },
  {
    what: "lengths count code points: 51 characters outside the BMP are one too many",
    url: `/api/v1/search?q=${encodeURIComponent("\u{20000}".repeat(51))}`,
    status: 400,
    type: "invalid-parameter",
    names: ["q"],
  },
  ...["1e2", ".5", "5.", "+5"].map(
    (price): Decision => ({
      what: `a price is digits with an optional fractional part: ${price} is refused`,
      url: `/api/v1/search?mip=${encodeURIComponent(price)}`,
      status: 400,
      type: "invalid-parameter",
      names: ["mip"],
    }),
  ),
];

/** Requests the same decisions say must be served. */
const SERVED: { what: string; url: string }[] = [
  { what: "an unknown parameter, even repeated", url: "/api/v1/feed?foo=1&foo=2" },
  { what: "a query of exactly 4096 characters as sent", url: `/api/v1/feed?${padded(4096)}` },
  { what: "an unknown parameter where none is taken", url: "/api/v1/meta?foo=1&foo=2" },
  {
    what: "a word of 50 characters outside the BMP",
    url: `/api/v1/search?q=${encodeURIComponent("\u{20000}".repeat(50))}`,
  },
  {
    what: "white space around words is trimmed (U+3000 ideographic space)",
    url: `/api/v1/search?q=${encodeURIComponent(`\u3000${"x".repeat(50)}\u3000`)}`,
  },
];

type Answer = { status: number; body: string };
let built: BuiltApp;
let layer: ReturnType<typeof createRuleLayer>;
let layerUrl: string;

beforeAll(async () => {
  built = await testApp({ size: 200, rateLimit: false, demoKey: DEFAULT_DEMO_ACCOUNT.apiKey });
  // Nothing listens upstream: a request that reached Prism would fail the test loudly.
  layer = createRuleLayer({ spec: built.spec, upstream: "http://127.0.0.1:9" });
  await new Promise<void>((resolve) => layer.listen(0, "127.0.0.1", resolve));
  layerUrl = `http://127.0.0.1:${(layer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  layer?.close();
  await built?.close();
});

type Sent = Pick<Decision, "url" | "headers">;
const server = async (d: Sent): Promise<Answer> => {
  const r = await built.app.inject({ url: d.url, headers: d.headers ?? {} });
  return { status: r.statusCode, body: r.body };
};
const mock = async (d: Sent): Promise<Answer> => {
  const r = await fetch(layerUrl + d.url, { headers: d.headers ?? {} });
  return { status: r.status, body: await r.text() };
};

describe.each([
  ["the reference server", server],
  ["the mock", mock],
] as const)("%s follows the spec's decisions", (_, send) => {
  it.each(DECISIONS)("$what ($url)", async (d) => {
    const answer = await send(d);
    expect(answer.status).toBe(d.status);
    const body = JSON.parse(answer.body) as { type: string; detail: string; errors?: { name: string }[] };
    expect(body.type).toBe(`/problems/${d.type}`);
    if (d.names) expect((body.errors ?? []).map((e) => e.name)).toEqual(d.names);
    else expect(body.errors).toBeUndefined();
    if (d.detail) expect(body.detail).toContain(d.detail);
  });
});

describe.each([
  ["the reference server", server],
  ["the mock", mock],
] as const)("%s serves what the decisions allow", (_, send) => {
  it.each(SERVED)("$what", async (d) => {
    if (send === mock) {
      // Served requests go on to Prism, which is not running here: the layer's verdict is enough.
      const answer = await send(d);
      expect(answer.status, answer.body).not.toBe(400);
      return;
    }
    expect((await send(d)).status).toBe(200);
  });
});

describe("the server and the mock answer alike", () => {
  it.each(DECISIONS)("$url", async (d) => {
    expect((await mock(d)).body).toBe((await server(d)).body);
  });
});

/** x-caching: the Cache-Control each kind of answer carries, alike from the server and the mock. */
const CACHING: { what: string; url: string; headers?: Record<string, string>; cacheControl: string }[] = [
  { what: "a public refusal", url: "/api/v1/rank?act=nope", cacheControl: "no-cache" },
  { what: "a personal stream's 401", url: `/api/v1/my/follow?uid=${UID}`, cacheControl: "private, no-store" },
  {
    what: "a personal stream's 400 for a query over the cap",
    url: `/api/v1/my/follow?uid=${UID}&${padded(4097 - `uid=${UID}&`.length)}`,
    headers: KEY,
    cacheControl: "private, no-store",
  },
  {
    what: "a personal stream's 400",
    url: `/api/v1/my/push?uid=${UID}&limit=0`,
    headers: KEY,
    cacheControl: "private, no-store",
  },
];

describe.each([
  [
    "the reference server",
    async (c: Sent) =>
      (await built.app.inject({ url: c.url, headers: c.headers ?? {} })).headers["cache-control"],
  ],
  [
    "the mock",
    async (c: Sent) =>
      (await fetch(layerUrl + c.url, { headers: c.headers ?? {} })).headers.get("cache-control"),
  ],
] as const)("%s says how caches may keep its answers", (_, cacheControlOf) => {
  it.each(CACHING)("$what: $cacheControl", async (c) => {
    expect(await cacheControlOf(c)).toBe(c.cacheControl);
  });
});

describe("the reference server's caching and compression (x-caching, x-compression)", () => {
  it("a served public answer is no-cache, a served personal one private, no-store", async () => {
    const rank = await built.app.inject({ url: "/api/v1/rank?act=shiwutian" });
    expect([rank.statusCode, rank.headers["cache-control"]]).toEqual([200, "no-cache"]);
    const mine = await built.app.inject({ url: `/api/v1/my/follow?uid=${UID}`, headers: KEY });
    expect([mine.statusCode, mine.headers["cache-control"]]).toEqual([200, "private, no-store"]);
  });

  it("a 429 is no-store", async () => {
    const limited = await testApp({ size: 200, rateLimit: { limit: 1 } });
    try {
      await limited.app.inject({ url: "/api/v1/meta" });
      const refused = await limited.app.inject({ url: "/api/v1/meta" });
      expect([refused.statusCode, refused.headers["cache-control"]]).toEqual([429, "no-store"]);
    } finally {
      await limited.close();
    }
  });

  it.each([
    ["a browser's codings: the server's first choice", "gzip, deflate, br", "br"],
    ["gzip only", "gzip", "gzip"],
    ["deflate only", "deflate", "deflate"],
  ])("%s (%s) gives %s, with Vary, decoding to the identity body", async (_what, accept, coding) => {
    const url = "/api/v1/rank?act=shiwutian&limit=300";
    const plain = await built.app.inject({ url });
    const encoded = await built.app.inject({ url, headers: { "accept-encoding": accept } });
    expect(encoded.headers["content-encoding"]).toBe(coding);
    expect(encoded.headers.vary).toBe("Accept-Encoding");
    const decode = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync }[coding];
    expect(decode?.(encoded.rawPayload).toString("utf8")).toBe(plain.body);
  });

  it.each([
    ["no Accept-Encoding", undefined],
    ["every coding refused", "br;q=0, gzip;q=0, deflate;q=0"],
    ["only a coding the API does not use", "zstd"],
  ])("%s: the body as it is, still with Vary", async (_what, accept) => {
    const r = await built.app.inject({
      url: "/api/v1/rank?act=shiwutian&limit=300",
      headers: accept ? { "accept-encoding": accept } : {},
    });
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.headers.vary).toBe("Accept-Encoding");
    expect(JSON.parse(r.body)).toHaveProperty("data");
  });

  it("a short answer is never compressed", async () => {
    const r = await built.app.inject({
      url: "/api/v1/rank?act=nope",
      headers: { "accept-encoding": "gzip" },
    });
    expect(r.headers["content-encoding"]).toBeUndefined();
  });
});
