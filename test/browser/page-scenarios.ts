/**
 * What the page does, as functions Playwright runs inside the browser (page.evaluate): each one
 * is serialized and runs there, so it may use only its argument and the page's globals (the
 * bundled client as `dealkit`, fetch). Each returns what the page saw, for the test to judge.
 */
import type * as ClientModule from "../../src/client/index.ts";

type PageGlobals = {
  dealkit: typeof ClientModule;
  /** A client kept across page.evaluate calls (the one built while limited). */
  keptClient?: ClientModule.DealClient;
};

export interface Target {
  base: string;
  uid: number;
  key: string;
}

/** One call per endpoint with the bundled client: the number of items each answer held. */
export async function callEveryEndpoint({ base, uid, key }: Target) {
  const { createDealClient } = (globalThis as unknown as PageGlobals).dealkit;
  const client = createDealClient({ baseUrl: base, apiKey: key, retry: { maxRetries: 0 } });
  const meta = await client.meta();
  const rank = await client.rank({ act: "ershisixiaoshi", limit: 60 });
  const feed = await client.feed({ limit: 20 });
  // Every priced item under the schema's price cap: a search that must find something.
  const search = await client.search({ mxp: 100000 });
  const shenghuo = await client.shenghuo({ with_cates: "1" });
  const rss = await client.rss();
  const follow = await client.myFollow({ uid });
  const push = await client.myPush({ uid });
  const legacy = await client.legacyRank("jintian");
  return {
    rankTypes: meta.data.rank_types.length,
    rank: rank.data.length,
    rankWithContent: rank.data.filter((e) => typeof e.content === "string" && e.content !== "").length,
    feed: feed.data.length,
    search: search.data.length,
    shenghuo: shenghuo.data.length,
    shenghuoCates: shenghuo.cates?.length ?? 0,
    rssItems: (rss.match(/<item>/g) ?? []).length,
    follow: follow.data.length,
    push: push.data.length,
    legacy: legacy.length,
  };
}

/** The personal stream by plain fetch: X-API-Key makes the browser preflight it. Then a wrong key. */
export async function fetchWithKey({ base, uid, key }: Target) {
  // A URL no call before asked for: the browser's preflight cache cannot skip this preflight.
  const url = `${base}/api/v1/my/follow?uid=${uid}&limit=5`;
  const ok = await fetch(url, { headers: { "X-API-Key": key } });
  const okBody = (await ok.json()) as { data: unknown[] };
  const refused = await fetch(url, { headers: { "X-API-Key": "0".repeat(32) } });
  const refusedBody = (await refused.json()) as { type: string };
  return {
    status: ok.status,
    items: okBody.data.length,
    cacheControl: ok.headers.get("cache-control"),
    refusedStatus: refused.status,
    refusedType: refusedBody.type,
  };
}

/** A 400, read twice: the raw problem+json by fetch, and the client's DealApiError. */
export async function readBadRequest(base: string) {
  const raw = await fetch(`${base}/api/v1/rank?act=jintian&limit=301`);
  const body = (await raw.json()) as { type: string; status: number; errors?: { name: string }[] };
  const { createDealClient, DealApiError } = (globalThis as unknown as PageGlobals).dealkit;
  const thrown = await createDealClient({ baseUrl: base })
    .rank({ act: "jintian", limit: 301 })
    .then(() => undefined)
    .catch((err: unknown) => err);
  return {
    status: raw.status,
    contentType: raw.headers.get("content-type"),
    type: body.type,
    bodyStatus: body.status,
    names: (body.errors ?? []).map((e) => e.name),
    clientError:
      thrown instanceof DealApiError
        ? { status: thrown.status, type: thrown.type, names: (thrown.errors ?? []).map((e) => e.name) }
        : String(thrown),
  };
}

/**
 * Sends one GET (with `headers`) up to `max` times, until the answer's status is `until`; returns
 * what JS can read of the last answer on another origin: its status, the exposed headers, the body.
 */
export async function readAnswer(ask: {
  url: string;
  headers?: Record<string, string>;
  max: number;
  until?: number;
}) {
  let last: Response | undefined;
  let sent = 0;
  while (sent < ask.max) {
    last = await fetch(ask.url, { headers: ask.headers ?? {} });
    sent++;
    if (last.status === ask.until || sent === ask.max) break;
    await last.body?.cancel();
  }
  if (!last) throw new Error("no request sent");
  const header = (name: string) => last.headers.get(name);
  const body = (await last.json()) as { type?: string; status?: number };
  return {
    sent,
    status: last.status,
    retryAfter: header("retry-after"),
    limit: header("ratelimit-limit"),
    remaining: header("ratelimit-remaining"),
    reset: header("ratelimit-reset"),
    type: body.type,
  };
}

/**
 * A client with `pacing: "meta"` and no retries, built and first used while the limiter refuses:
 * its first call fails. It is kept on the page for `callKeptClient`.
 */
export async function buildClientWhileLimited(base: string) {
  const g = globalThis as unknown as PageGlobals;
  const { createDealClient, DealApiError } = g.dealkit;
  g.keptClient = createDealClient({ baseUrl: base, pacing: "meta", retry: { maxRetries: 0 } });
  const thrown = await g.keptClient
    .rank({ act: "jintian" })
    .then(() => undefined)
    .catch((err: unknown) => err);
  return thrown instanceof DealApiError
    ? { status: thrown.status, type: thrown.type, retryAfterSeconds: thrown.retryAfterSeconds }
    : String(thrown);
}

/** The kept client's next call: the number of items it answered. */
export async function callKeptClient() {
  const g = globalThis as unknown as PageGlobals;
  if (!g.keptClient) throw new Error("no kept client: run buildClientWhileLimited first");
  return (await g.keptClient.rank({ act: "jintian" })).data.length;
}

/**
 * A client with `pacing: "meta"` and the default retry, built while limited: its first call
 * waits Retry-After (the manifest request included) and then answers, with no help from the page.
 */
export async function recoverByItself(base: string) {
  const { createDealClient } = (globalThis as unknown as PageGlobals).dealkit;
  const waits: number[] = [];
  const client = createDealClient({
    baseUrl: base,
    pacing: "meta",
    retry: { onWait: (seconds) => waits.push(seconds) },
  });
  const started = Date.now();
  const rank = await client.rank({ act: "jintian" });
  return { items: rank.data.length, waits, tookMs: Date.now() - started };
}
