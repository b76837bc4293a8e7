/**
 * The typed client in a real browser, from a page on another origin (issue 24): headless
 * Chromium loads a page from one loopback port and the client, bundled by esbuild, calls the API
 * on another port, once against the reference server and once against `dealkit mock`. What is
 * judged is what the page's JavaScript could read: statuses, bodies, the exposed headers of a
 * 400 and a 429, the personal stream behind its preflight, the mock's `Prefer`, and a client
 * built while the limiter refuses that gets going again. A recording proxy in front of each
 * target shows what the browser sent, preflights included (Playwright does not report those).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { type StartedServer, startServer } from "../../reference-server/index.ts";
import { chromiumAvailable, launchChromium } from "../../src/docs/browser.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { requireTool } from "../required-tool.ts";
import { type HeldClock, heldClock } from "./held-clock.ts";
import { type PageOrigin, startPageOrigin } from "./page-origin.ts";
import {
  buildClientWhileLimited,
  callEveryEndpoint,
  callKeptClient,
  fetchWithKey,
  readAnswer,
  readBadRequest,
  recoverByItself,
  type Target,
} from "./page-scenarios.ts";
import { type Exchange, type RecordingProxy, startRecordingProxy } from "./recording-proxy.ts";

/**
 * The reference server's limit for this file: above the requests of the endpoint and error cases
 * (13), so those never meet a 429, and a window short enough that the client waiting it out in
 * real time costs seconds.
 */
const SERVER_RATE = { limit: 20, windowSeconds: 3 };

/**
 * The console errors the tests cause: the browser logs one for every non-2xx fetch (these
 * statuses are asked for), and two for the `Prefer` the reference server's preflight refuses.
 */
const EXPECTED_CONSOLE = [
  /^Failed to load resource: the server responded with a status of (400|401|429) /,
  /has been blocked by CORS policy: Request header field prefer is not allowed by Access-Control-Allow-Headers in preflight response\.$/,
  /^Failed to load resource: net::ERR_FAILED$/,
];

const present = requireTool({
  name: "chromium",
  available: chromiumAvailable(),
  install: "apt-get install -y chromium",
  needs: "the typed client in a browser page on another origin",
});

describe.runIf(present)("the bundled client in a page on another origin", () => {
  let spec: Spec;
  let browser: Browser;
  let context: BrowserContext;
  let origin: PageOrigin;
  let server: StartedServer;
  let mock: RunningMock;
  const serverClock = heldClock();
  const mockClock = heldClock();
  const proxies: RecordingProxy[] = [];
  const consoleErrors: string[] = [];
  const requested: string[] = [];

  beforeAll(async () => {
    spec = await loadSpec();
    [origin, server, mock, browser] = await Promise.all([
      startPageOrigin(),
      startServer({ port: 0, dbPath: ":memory:", size: 2000, rateLimit: SERVER_RATE, now: serverClock.now }),
      startMock({ port: 0, now: mockClock.now }),
      launchChromium(),
    ]);
    context = await browser.newContext();
    context.on("request", (r) => requested.push(r.url()));
    context.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([...proxies.map((p) => p.close()), origin?.close(), server?.close(), mock?.close()]);
  });

  async function openPage(): Promise<Page> {
    const page = await context.newPage();
    page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(origin.url);
    await page.waitForFunction(() => "dealkit" in globalThis);
    return page;
  }

  /** The cases both targets must pass; `target()` is read once the servers are up. */
  function everyTargetCases(name: string, target: () => { page: Page; proxy: RecordingProxy; t: Target }) {
    const pageOrigin = () => origin.url.replace(/\/$/, "");

    it(`${name}: calls every endpoint with the bundled client and gets items from each`, async () => {
      const { page, t } = target();
      const seen = await page.evaluate(callEveryEndpoint, t);
      const empty = Object.entries(seen).filter(([, n]) => !(n > 0));
      expect(empty).toEqual([]);
      // limit 60 is above 50: every rank entry carries its content.
      expect(seen.rankWithContent).toBe(seen.rank);
    });

    it(`${name}: a request with X-API-Key is preflighted, allowed, and its answer read`, async () => {
      const { page, proxy, t } = target();
      const from = proxy.exchanges.length;
      const seen = await page.evaluate(fetchWithKey, t);
      expect(seen).toMatchObject({ status: 200, refusedStatus: 401, refusedType: "/problems/unauthorized" });
      expect(seen.items).toBeGreaterThan(0);
      expect(spec.cacheControl("personal").map((set) => set.join(", "))).toContain(seen.cacheControl);
      const path = `/api/v1/my/follow?uid=${t.uid}&limit=5`;
      const preflight = proxy.exchanges.slice(from).find((e) => e.method === "OPTIONS" && e.url === path);
      expect(preflight).toMatchObject({ origin: pageOrigin(), status: spec.cors.preflight.status });
      expect(preflight?.requestedHeaders?.split(",").map((h) => h.trim())).toContain("x-api-key");
      const gets = proxy.exchanges.slice(from).filter((e) => e.method === "GET" && e.url === path);
      expect(gets.map((e) => [e.origin, e.status])).toEqual([
        [pageOrigin(), 200],
        [pageOrigin(), 401],
      ]);
    });

    it(`${name}: a 400 problem+json is read from JS, raw and as the client's DealApiError`, async () => {
      const { page, t } = target();
      const seen = await page.evaluate(readBadRequest, t.base);
      expect(seen).toMatchObject({ status: 400, bodyStatus: 400, type: "/problems/invalid-parameter" });
      expect(seen.contentType).toMatch(/^application\/problem\+json\b/);
      expect(seen.names).toContain("limit");
      expect(seen.clientError).toMatchObject({ status: 400, type: "/problems/invalid-parameter" });
      expect((seen.clientError as { names: string[] }).names).toContain("limit");
    });
  }

  /**
   * Spends the window's budget from the page with the target's clock held, so the last request
   * is refused however slowly the page sends them; the clock stays held. The 429 as JS read it.
   */
  async function spendWindow(page: Page, base: string, clock: HeldClock, rate: { limit: number }) {
    clock.hold();
    return page.evaluate(readAnswer, { url: `${base}/api/v1/meta`, max: rate.limit + 1, until: 429 });
  }

  /** A real 429 read from JS: Retry-After and the RateLimit-* headers are readable (x-cors exposes them). */
  async function readsReal429(
    page: Page,
    base: string,
    clock: HeldClock,
    rate: { limit: number; windowSeconds: number },
  ) {
    const seen = await spendWindow(page, base, clock, rate);
    // The next case starts with a free window.
    clock.advance((rate.windowSeconds + 1) * 1000);
    clock.release();
    expect(seen).toMatchObject({
      status: 429,
      type: "/problems/rate-limited",
      limit: String(rate.limit),
      remaining: "0",
    });
    for (const value of [seen.retryAfter, seen.reset]) expect(value).toMatch(/^[0-9]+$/);
    expect(Number(seen.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(seen.retryAfter)).toBeLessThanOrEqual(rate.windowSeconds);
    expect(spec.cors.expose_headers).toEqual(expect.arrayContaining(["Retry-After", "RateLimit-Remaining"]));
  }

  /** A client built while limited fails its first call; a window later its next call asks again. */
  async function notStuck(
    page: Page,
    proxy: RecordingProxy,
    base: string,
    clock: HeldClock,
    rate: { limit: number; windowSeconds: number },
  ) {
    await spendWindow(page, base, clock, rate);
    const from = proxy.exchanges.length;
    const refused = await page.evaluate(buildClientWhileLimited, base);
    clock.advance((rate.windowSeconds + 1) * 1000);
    clock.release();
    expect(refused).toMatchObject({ status: 429, type: "/problems/rate-limited" });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(callKeptClient)).toBeGreaterThan(0);
    expect(manifestStatuses(proxy.exchanges, from)).toEqual([429, 200]);
  }

  /** Manifest requests since `from`, as [status] in order: what a pacing "meta" client asked. */
  const manifestStatuses = (exchanges: Exchange[], from: number) =>
    exchanges
      .slice(from)
      .filter((e) => e.method === "GET" && e.url === "/api/v1/meta")
      .map((e) => e.status);

  describe("against the reference server", () => {
    let page: Page;
    let proxy: RecordingProxy;
    let t: Target;

    beforeAll(async () => {
      proxy = await startRecordingProxy(server.url);
      proxies.push(proxy);
      if (!server.demo) throw new Error("the reference server did not report its demo account");
      t = { base: proxy.url, uid: server.demo.uid, key: server.demo.key };
      page = await openPage();
    });

    everyTargetCases("server", () => ({ page, proxy, t }));

    it("server: Prefer is refused by the API's preflight (x-cors), so the page's fetch fails", async () => {
      // The contract's side of the mock's difference (mocks/README.md): Prefer is the mock's header only.
      expect(spec.cors.preflight.allow_headers).not.toContain("Prefer");
      const from = proxy.exchanges.length;
      const forced = page.evaluate(readAnswer, {
        url: `${t.base}/api/v1/rank?act=jintian`,
        headers: { Prefer: "code=429" },
        max: 1,
      });
      await expect(forced).rejects.toThrow(/TypeError: Failed to fetch/);
      // Only the preflight reached the server: the request itself was never sent.
      expect(proxy.exchanges.slice(from).map((e) => e.method)).toEqual(["OPTIONS"]);
    });

    it("server: a 429 is read from JS with Retry-After and RateLimit-*", async () => {
      await readsReal429(page, t.base, serverClock, SERVER_RATE);
    });

    it("server: a client built while limited fails its first call, and its next call asks again", async () => {
      await notStuck(page, proxy, t.base, serverClock, SERVER_RATE);
    });

    it("server: a client built while limited recovers by itself once the window frees", async () => {
      await spendWindow(page, t.base, serverClock, SERVER_RATE);
      const from = proxy.exchanges.length;
      const running = page.evaluate(recoverByItself, t.base);
      // Time runs again once the manifest request was refused: the client's wait frees the window.
      await expect.poll(() => manifestStatuses(proxy.exchanges, from), { timeout: 10_000 }).toContain(429);
      serverClock.release();
      const seen = await running;
      expect(seen.items).toBeGreaterThan(0);
      expect(seen.waits.length).toBeGreaterThanOrEqual(1);
      for (const w of seen.waits) expect(w).toBeLessThanOrEqual(SERVER_RATE.windowSeconds);
      expect(seen.tookMs).toBeGreaterThanOrEqual(1000);
      // The manifest request itself was refused, waited on, and asked again.
      expect(manifestStatuses(proxy.exchanges, from).slice(0, 2)).toEqual([429, 200]);
    }, 20_000);
  });

  describe("against dealkit mock", () => {
    let page: Page;
    let proxy: RecordingProxy;
    let t: Target;
    const rate = () => ({ limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds });

    beforeAll(async () => {
      proxy = await startRecordingProxy(mock.url);
      proxies.push(proxy);
      t = { base: proxy.url, uid: DEFAULT_DEMO_ACCOUNT.uid, key: DEFAULT_DEMO_ACCOUNT.apiKey };
      page = await openPage();
    });

    everyTargetCases("mock", () => ({ page, proxy, t }));

    it("mock: Prefer: code=429 passes the preflight and gives a 429 that JS reads", async () => {
      const from = proxy.exchanges.length;
      const seen = await page.evaluate(readAnswer, {
        url: `${t.base}/api/v1/rank?act=jintian`,
        headers: { Prefer: "code=429" },
        max: 1,
      });
      expect(seen).toMatchObject({
        status: 429,
        type: "/problems/rate-limited",
        limit: String(rate().limit),
      });
      expect(seen.retryAfter).toMatch(/^[1-9][0-9]*$/);
      // Forced, not earned: the budget is not spent (a forced 429 is not counted either).
      expect(Number(seen.remaining)).toBeGreaterThan(0);
      const preflight = proxy.exchanges.slice(from).find((e) => e.method === "OPTIONS");
      expect(preflight?.status).toBe(spec.cors.preflight.status);
      expect(preflight?.requestedHeaders?.split(",").map((h) => h.trim())).toContain("prefer");
    });

    it("mock: a real 429 is read from JS with Retry-After and RateLimit-*", async () => {
      await readsReal429(page, t.base, mockClock, rate());
    });

    it("mock: a client built while limited fails its first call, and its next call asks again", async () => {
      await notStuck(page, proxy, t.base, mockClock, rate());
    });
  });

  it("logged no console error but the statuses asked for, and sent nothing beyond loopback", () => {
    expect(consoleErrors.filter((m) => !EXPECTED_CONSOLE.some((e) => e.test(m)))).toEqual([]);
    expect(consoleErrors.length).toBeGreaterThan(0);
    const away = requested.filter((u) => !u.startsWith("data:") && new URL(u).hostname !== "127.0.0.1");
    expect(away).toEqual([]);
    expect(requested.length).toBeGreaterThan(0);
    // Every API exchange came from the page's origin: each was a cross-origin (CORS) request.
    const origins = new Set(proxies.flatMap((p) => p.exchanges.map((e) => e.origin)));
    expect([...origins]).toEqual([origin.url.replace(/\/$/, "")]);
  });
});
