/**
 * Phase 1, discover: what the suite learns from the target before planning, in four requests (a
 * 429 among them is asked again once, after its Retry-After). Is it this API at all (a target that is not stops the run, exit 2)? Its advertised
 * rate (the stricter of spec and meta wins), how much of its rate window is already used, and
 * its vocabulary (words, prices, categories of its own data), so that the plan's requests find
 * data to judge.
 */
import { type Vocabulary, vocabularyFrom } from "../arbitraries/vocabulary.ts";
import type { Exchange, RequestCase } from "../types.ts";
import { NotSent } from "./transport.ts";

const get = (operationId: string, pathname: string, query: [string, string][]): RequestCase => ({
  method: "GET",
  operationId,
  pathname,
  query,
  headers: {},
  label: "discovery",
});

export const DISCOVERY: RequestCase[] = [
  get("getMeta", "/api/v1/meta", []),
  get("getFeed", "/api/v1/feed", [["limit", "50"]]),
  get("getRank", "/api/v1/rank", [
    ["act", "shiwutian"],
    ["limit", "300"],
  ]),
  get("listActivities", "/api/v1/shenghuo", [
    ["with_cates", "1"],
    ["pageSize", "100"],
  ]),
];

export interface Discovery {
  exchanges: Exchange[];
  /** Set when the target is not this API, or cannot be reached: the run stops (exit 2). */
  stop?: string;
  /** The rate the target's manifest advertises. */
  metaRate?: { limit: number; windowSeconds: number };
  vocabulary: Vocabulary;
}

const arrayAt = (e: Exchange | undefined, key: "data" | "cates"): unknown[] => {
  const v = (e?.body as Record<string, unknown> | undefined)?.[key];
  return e?.status === 200 && Array.isArray(v) ? v : [];
};

/**
 * An answer only this kind of API gives: the JSON envelope `{ data, ... }`, an RFC 9457 problem
 * body, or a 429 with Retry-After. An HTML page, a 404 text or a directory listing is not one.
 */
export function looksLikeTheApi(e: Exchange): boolean {
  if (e.failure) return false;
  const body = e.body as Record<string, unknown> | null;
  const object = body !== null && typeof body === "object" && !Array.isArray(body);
  if (e.status === 200 && e.mediaType === "application/json" && object && "data" in body) return true;
  if (e.mediaType === "application/problem+json" && object && "status" in body && "title" in body)
    return true;
  return e.status === 429 && e.headers["retry-after"] !== undefined;
}

/**
 * A base URL whose path ends with the start of the spec's own paths (`…/api/v1` before `/api/v1/meta`)
 * would send every request to `/api/v1/api/v1/…`, whose 404s are the API's own problem bodies:
 * judged, they make dozens of findings with no cause. Stopped before anything is sent, with the fix.
 */
export function repeatedPathPrefix(baseUrl: string, paths: string[]): string | undefined {
  const url = new URL(baseUrl);
  const segments = url.pathname.split("/").filter(Boolean);
  for (let from = 0; from < segments.length; from++) {
    const tail = `/${segments.slice(from).join("/")}`;
    const carried = paths.find((p) => p.startsWith(`${tail}/`));
    if (!carried) continue;
    const fixed = new URL(baseUrl);
    fixed.pathname = `/${segments.slice(0, from).join("/")}`;
    const fix = fixed.href.replace(/\/$/, "");
    return `--base-url ${baseUrl} ends with ${tail}, which the spec's paths already carry (${carried}): every request would go to ${tail}${carried}. Use --base-url ${fix}`;
  }
  return undefined;
}

const describe = (e: Exchange) =>
  `${e.request.method} ${e.request.pathname}${e.request.query.length ? "?…" : ""} → ${
    e.failure ? e.failure.message : `${e.status} ${e.mediaType ?? "(no content type)"}`
  }`;

/** Sends the discovery requests one by one and reads what they tell. */
export async function discover(send: (r: RequestCase) => Promise<Exchange>): Promise<Discovery> {
  const exchanges: Exchange[] = [];
  for (const request of DISCOVERY) {
    let e: Exchange;
    try {
      e = await send(request);
    } catch (err) {
      // A target that refuses this client is still judged on what it answered (its 429s).
      if (!(err instanceof NotSent)) throw err;
      if (err.refused) break;
      return { exchanges, stop: `${err.message} during discovery`, vocabulary: vocabularyFrom([], [], []) };
    }
    exchanges.push(e);
    if (e.failure?.kind === "unreachable") {
      return {
        exchanges,
        stop: `target unreachable: ${e.failure.message}`,
        vocabulary: vocabularyFrom([], [], []),
      };
    }
  }
  const [meta, feed, rank, shenghuo] = exchanges;
  // The rank first: words equally widespread are taken from the most discussed alerts first (a
  // feed's newest alert is often in the rank as well, and then ties with the older ones).
  const vocabulary = vocabularyFrom(
    [...arrayAt(rank, "data"), ...arrayAt(feed, "data")],
    arrayAt(shenghuo, "data"),
    arrayAt(shenghuo, "cates"),
  );
  // Every answer a 404, problem bodies or not: no operation of the spec is where the base URL says.
  if (exchanges.length > 0 && exchanges.every((e) => e.status === 404)) {
    return {
      exchanges,
      stop: `not found: every discovery request got 404, so the API is not at this base URL (is its path right?): ${exchanges.map(describe).join("; ")}`,
      vocabulary,
    };
  }
  if (!exchanges.some(looksLikeTheApi)) {
    const failed = exchanges.every((e) => e.failure);
    return {
      exchanges,
      stop: failed
        ? `no answer from the target: ${exchanges.map(describe).join("; ")}`
        : `not the deal-alert API (no JSON envelope, problem body or 429 in ${exchanges.length} answers): ${exchanges.map(describe).join("; ")}`,
      vocabulary,
    };
  }
  const rl = (
    meta?.body as { data?: { rate_limit?: { limit?: unknown; window_seconds?: unknown } } } | undefined
  )?.data?.rate_limit;
  return {
    exchanges,
    vocabulary,
    ...(meta?.status === 200 && typeof rl?.limit === "number" && typeof rl.window_seconds === "number"
      ? { metaRate: { limit: rl.limit, windowSeconds: rl.window_seconds } }
      : {}),
  };
}
