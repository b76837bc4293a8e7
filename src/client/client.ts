import createClient, { type Client } from "openapi-fetch";
import type { operations, paths } from "../generated/api-types.ts";
import { type Clock, realClock } from "./clock.ts";
import { DealApiError } from "./errors.ts";
import { Pacer, type RatePolicy } from "./pacer.ts";
import { type RetryPolicy, retryAfterSeconds, retryingFetch } from "./retry.ts";

export interface DealClientOptions {
  /** Scheme, host and port of an implementation, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** The account key for the personal streams, sent as X-API-Key. */
  apiKey?: string;
  /** Waiting on 429s; `{ maxRetries: 0 }` surfaces the first one. */
  retry?: RetryPolicy;
  /**
   * Client-side pacing at the advertised rate: a policy (e.g. `ratePolicyOf(spec)`, from the
   * spec's x-rate-limit), or "meta" to read it from the target's /api/v1/meta on first use.
   * Off by default.
   */
  pacing?: RatePolicy | "meta";
  /** Injectable time, for deterministic tests. */
  clock?: Clock;
  /** Injectable transport (defaults to globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
type Json<Op extends keyof operations> = operations[Op]["responses"][200]["content"] extends {
  "application/json": infer T;
}
  ? T
  : never;

/** The typed client: one method per operation of the spec, plus `api`, the raw typed openapi-fetch client. */
export interface DealClient {
  meta(): Promise<Json<"getMeta">>;
  rank(query: Query<"getRank">): Promise<Json<"getRank">>;
  feed(query?: Query<"getFeed">): Promise<Json<"getFeed">>;
  search(query: Query<"searchAlerts">): Promise<Json<"searchAlerts">>;
  shenghuo(query?: Query<"listActivities">): Promise<Json<"listActivities">>;
  /** The RSS 2.0 document, as text. */
  rss(query?: Query<"getRss">): Promise<string>;
  myFollow(query: Query<"getMyFollowHits">, apiKey?: string): Promise<Json<"getMyFollowHits">>;
  myPush(query: Query<"getMyPushHits">, apiKey?: string): Promise<Json<"getMyPushHits">>;
  /** The legacy bare-array rank file /plus/json/rank/{act}.json. */
  legacyRank(act: Query<"getRank">["act"]): Promise<Json<"getLegacyRankFile">>;
  api: Client<paths>;
}

/**
 * Creates a client for any implementation of the v1 contract. Every call paces itself (when
 * asked), waits Retry-After on a 429 within the retry bounds, and throws DealApiError with
 * the problem+json body on any non-2xx answer.
 */
export function createDealClient(options: DealClientOptions): DealClient {
  const clock = options.clock ?? realClock;
  const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const pacer = lazyPacer(options, transport, clock);
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: retryingFetch(transport, clock, options.retry, async () => (await pacer())?.acquire()),
  });

  async function unwrap<T>(
    call: Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<NonNullable<T>> {
    const { data, error, response } = await call;
    if (!response.ok || data === undefined) {
      const wait =
        response.status === 429
          ? retryAfterSeconds(response.headers.get("retry-after"), clock.now())
          : undefined;
      throw new DealApiError(response.status, error, response.statusText, wait);
    }
    return data as NonNullable<T>;
  }

  const key = (apiKey?: string) => {
    const value = apiKey ?? options.apiKey;
    if (value === undefined) throw new TypeError("the personal streams need an apiKey (X-API-Key)");
    return { "X-API-Key": value };
  };

  return {
    api,
    meta: () => unwrap(api.GET("/api/v1/meta")),
    rank: (query) => unwrap(api.GET("/api/v1/rank", { params: { query } })),
    feed: (query) => unwrap(api.GET("/api/v1/feed", { params: { query } })),
    search: (query) => unwrap(api.GET("/api/v1/search", { params: { query } })),
    shenghuo: (query) => unwrap(api.GET("/api/v1/shenghuo", { params: { query } })),
    rss: (query) => unwrap(api.GET("/rss.php", { params: { query }, parseAs: "text" })),
    myFollow: (query, apiKey) =>
      unwrap(api.GET("/api/v1/my/follow", { params: { query }, headers: key(apiKey) })),
    myPush: (query, apiKey) =>
      unwrap(api.GET("/api/v1/my/push", { params: { query }, headers: key(apiKey) })),
    legacyRank: (act) => unwrap(api.GET("/plus/json/rank/{act}.json", { params: { path: { act } } })),
  };
}

/**
 * The pacer, built on first use: from the given policy, or from the target's manifest (that
 * request counts against the budget too, so it is recorded as the first one). The manifest
 * request waits Retry-After like any call; if it still fails, the next call asks again (a client
 * built while limited is not stuck with that failure).
 */
function lazyPacer(
  options: DealClientOptions,
  transport: (request: Request) => Promise<Response>,
  clock: Clock,
): () => Promise<Pacer | undefined> {
  const fetchManifest = retryingFetch(transport, clock, options.retry);
  const build = async (): Promise<Pacer | undefined> => {
    if (options.pacing === undefined) return undefined;
    if (options.pacing !== "meta") return new Pacer(options.pacing, clock);
    const url = `${options.baseUrl.replace(/\/+$/, "")}/api/v1/meta`;
    const response = await fetchManifest(new Request(url));
    if (!response.ok) {
      const wait =
        response.status === 429
          ? retryAfterSeconds(response.headers.get("retry-after"), clock.now())
          : undefined;
      throw new DealApiError(response.status, await bodyOf(response), response.statusText, wait);
    }
    const manifest = (await response.json()) as Json<"getMeta">;
    const { limit, window_seconds } = manifest.data.rate_limit;
    const pacer = new Pacer({ limit, windowSeconds: window_seconds }, clock);
    await pacer.acquire();
    return pacer;
  };
  let pending: Promise<Pacer | undefined> | undefined;
  return () => {
    pending ??= build().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

/** An error answer's body as every other call surfaces it: parsed JSON (the problem), else the text. */
async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON (a proxy's HTML page): DealApiError keeps it as the body
  }
}
