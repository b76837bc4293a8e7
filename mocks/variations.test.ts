import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeContent } from "../conformance/http/decode.ts";
import { loadSpec } from "../src/spec/load.ts";
import type { Spec } from "../src/spec/spec.ts";
import { DEFAULT_DEMO_ACCOUNT } from "./auth.ts";
import { type Got, httpGet } from "./http-get.ts";
import { createRuleLayer } from "./rule-layer.ts";
import { type RunningMock, startMock } from "./start.ts";
import { mockVariations } from "./variations.ts";
import { VARIATIONS, VARIATIONS_HEADER } from "./variations-catalogue.ts";

// One Prism for the file; further rule layers with variations share it (a layer is cheap, a
// Prism takes seconds). Every layer reads one injected clock: refusals and the 60/min window
// move when the test moves it, never with the wall clock.
let clock = Date.UTC(2026, 11, 7, 6, 0, 0);
const now = () => clock;
let spec: Spec;
let mock: RunningMock;
const extraLayers: Server[] = [];

beforeAll(async () => {
  spec = await loadSpec();
  mock = await startMock({ port: 0, now, variations: "run-1" });
});
afterAll(async () => {
  for (const s of extraLayers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await mock?.close();
});

/** Another rule layer over the same Prism, with variations drawn from `seed`. */
async function layerWithSeed(seed: string): Promise<string> {
  const server = createRuleLayer({
    spec,
    upstream: mock.prismUrl,
    now,
    variations: mockVariations({ spec, seed, now }),
  });
  extraLayers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const KEY = { "x-api-key": DEFAULT_DEMO_ACCOUNT.apiKey };
/** What browsers and fetch offer: the compression variations apply only to such requests. */
const OFFERED = { "accept-encoding": "gzip, deflate, br" };

/** A client's session: every operation in turn, some twice with other parameters. */
const SESSION: [string, Record<string, string>?][] = [
  ["/api/v1/meta"],
  ["/api/v1/rank?act=jintian"],
  ["/api/v1/rank?act=santian&limit=60"],
  ["/api/v1/feed"],
  ["/api/v1/feed?type=zdm&limit=30"],
  ["/api/v1/search?q=%E5%88%B8"],
  ["/api/v1/search?mip=1&mxp=500&cate=weibo"],
  ["/api/v1/shenghuo?with_cates=1"],
  ["/rss.php"],
  [`/api/v1/my/follow?uid=${DEFAULT_DEMO_ACCOUNT.uid}`, KEY],
  [`/api/v1/my/push?uid=${DEFAULT_DEMO_ACCOUNT.uid}`, KEY],
  ["/plus/json/rank/jintian.json"],
];

const ask = (base: string, [path, headers]: (typeof SESSION)[number], localAddress = "127.0.0.1") =>
  httpGet(base + path, { headers: { ...OFFERED, ...headers }, localAddress });

const variationsOf = (res: Got) =>
  (res.headers[VARIATIONS_HEADER.toLowerCase()] ?? "").split(",").filter(Boolean);

/** The body's text as the client reads it: decoded. */
function decodedText(res: Got): string {
  const decoded = decodeContent(res.raw, res.headers["content-encoding"], 10_000_000);
  if (!("body" in decoded)) throw new Error(decoded.failure.message);
  return decoded.body.toString("utf8");
}

/** The body as the client reads it: decoded, and parsed when JSON. */
function bodyOf(res: Got): unknown {
  const text = decodedText(res);
  return /json/.test(res.headers["content-type"] ?? "") ? JSON.parse(text) : text;
}

/** The answer against the spec: its body's schema, and for a 429 the headers that must agree. */
function expectValid(path: string, res: Got) {
  const route = spec.match(new URL(path, "http://x").pathname);
  if (!route) throw new Error(`unrouted ${path}`);
  const mediaType = (res.headers["content-type"] ?? "").split(";")[0] ?? "";
  const validate = spec.responseValidator(route.operation.operationId, res.status, mediaType);
  const body = bodyOf(res);
  if (validate) expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
  if (res.headers["content-encoding"])
    expect(OFFERED["accept-encoding"]).toContain(res.headers["content-encoding"]);
  if (res.status !== 429) return;
  expect(body).toMatchObject({ type: "/problems/rate-limited", status: 429 });
  expect(res.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
  expect(res.headers["ratelimit-remaining"]).toBe("0");
  expect(res.headers["ratelimit-reset"]).toBe(res.headers["retry-after"]);
  expect(res.headers["cache-control"]).toBe("no-store");
}

describe("dealkit mock --variations", () => {
  it("applies every variation of the table over a client's session, each answer valid and labelled", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 96; i++) {
      const request = SESSION[i % SESSION.length] as (typeof SESSION)[number];
      clock += 1100; // 96 requests over 105 s: never the real 60/min limit
      const res = await ask(mock.url, request);
      expectValid(request[0], res);
      for (const id of variationsOf(res)) seen.add(id);
      if (res.status === 429) clock += Number(res.headers["retry-after"]) * 1000;
      else expect(res.status).toBe(200);
    }
    expect([...seen].sort()).toEqual(VARIATIONS.map((v) => v.id).sort());
  });

  it("is deterministic: the same seed and the same requests give the same answers; another seed others", async () => {
    const [a, b, other] = await Promise.all([
      layerWithSeed("same"),
      layerWithSeed("same"),
      layerWithSeed("other"),
    ]);
    const start = clock + 3_600_000;
    // Each run from the same instant at the same pace, waiting out refusals: the same sequence in time too.
    const run = async (base: string) => {
      clock = start;
      const out: unknown[] = [];
      for (const request of [...SESSION, ...SESSION]) {
        clock += 1100;
        const res = await ask(base, request, "127.0.0.9");
        if (res.status === 429) clock += Number(res.headers["retry-after"]) * 1000;
        // The body as the client reads it, and as written (key order); RSS links name the layer's own port.
        const text = decodedText(res).replaceAll(base, "BASE");
        out.push([res.status, variationsOf(res), res.headers["content-encoding"], text]);
      }
      return out;
    };
    const first = await run(a);
    expect(await run(b)).toEqual(first);
    expect(await run(other)).not.toEqual(first);
    // Not vacuous: the session drew variations.
    const rows = first as [number, string[]][];
    expect(new Set(rows.flatMap(([, ids]) => ids)).size).toBeGreaterThanOrEqual(4);
    expect(rows.filter(([status]) => status === 200).length).toBeGreaterThan(SESSION.length);
  });

  it("a drawn 429 is honest: retrying at once is refused again, waiting Retry-After is served", async () => {
    const base = await layerWithSeed("honest");
    const client = "127.0.0.12";
    let refusal: Got | undefined;
    for (let i = 0; i < 200 && !refusal; i++) {
      clock += 1100;
      const res = await ask(base, SESSION[i % SESSION.length] as (typeof SESSION)[number], client);
      if (res.status === 429) refusal = res;
    }
    if (!refusal) throw new Error("seed 'honest' drew no refusal in 200 requests");
    expect(variationsOf(refusal)).toEqual(["rate-limited"]);
    const wait = Number(refusal.headers["retry-after"]) * 1000;
    // At once, and just before the wait is over: refused, with the time that is really left.
    const atOnce = await ask(base, SESSION[0] as (typeof SESSION)[number], client);
    expect(atOnce.status).toBe(429);
    expect(atOnce.headers["retry-after"]).toBe(refusal.headers["retry-after"]);
    clock += wait - 1;
    const almost = await ask(base, SESSION[0] as (typeof SESSION)[number], client);
    expect(almost.status).toBe(429);
    expect(almost.headers["retry-after"]).toBe("1");
    expectValid(SESSION[0]?.[0] as string, almost);
    // Another client is not refused meanwhile: the refusal is this client's.
    expect((await ask(base, SESSION[0] as (typeof SESSION)[number], "127.0.0.13")).status).toBe(200);
    clock += 1;
    const after = await ask(base, SESSION[0] as (typeof SESSION)[number], client);
    expect(after.status).toBe(200);
    expect(variationsOf(after)).not.toContain("rate-limited");
  });

  it("varies nothing on a preflight, and lets a page read the variations header", async () => {
    const res = await httpGet(`${mock.url}/api/v1/rank?act=jintian`, {
      method: "OPTIONS",
      headers: { origin: "http://page.test", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(spec.methods.options.status);
    expect(variationsOf(res)).toEqual([]);
    clock += 1100;
    const got = await ask(mock.url, SESSION[0] as (typeof SESSION)[number]);
    expect(got.headers["access-control-expose-headers"]).toContain(VARIATIONS_HEADER);
  });
});
