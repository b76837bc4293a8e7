/**
 * Planted bugs: one documented behaviour broken each, and the checks that must then fail
 * (exactly these). Where the spec states a rule twice (a required field that a rule also
 * demands), both checks are expected.
 */
import { localMidnight, localStamp } from "../../src/rules/windows.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { widerWindow } from "../rules/vary.ts";
import { CONTRACT_POINTS } from "./contract-points.ts";
import { FixedWindowStore, faultyLimiter } from "./faulty-limiter.ts";
import type { Mutation, ProxiedRequest, ProxiedResponse } from "./proxy.ts";
import {
  cacheIgnoringKey,
  compressedTruncated,
  compressedTwice,
  compressedUnasked,
  compressedWithoutVary,
  longHeaderRefusedByProxy,
  longUrlRefusedByProxy,
  wafBlocksPipes,
} from "./stack.ts";
import { TOO_LITTLE } from "./too-little.ts";

export interface PlantedBug {
  name: string;
  breaks: string;
  mutation: Mutation;
  expect: string[];
  /** The run reads a spec variant whose Alert no longer requires `louzhu` (a v1.x draft that dropped it). */
  specWithoutLouzhu?: boolean;
  /** Only a run that waits out Retry-After can see it (not --skip-slow). */
  slow?: boolean;
  /** The rate the run paces by, when the planted limiter's window is shorter than the spec's. */
  rate?: { limit: number; windowSeconds: number };
  /** The violation codes expected, where a check's name alone would not tell the faults apart. */
  codes?: string[];
  /** The root causes the report must name (runner/causes.ts), exactly. */
  causes?: string[];
}

type Body = { data?: unknown; meta?: unknown; cates?: unknown };

/** Rewrites a JSON 200 answer of one path. */
function onJson(path: string, edit: (body: Body, req: ProxiedRequest) => void): Mutation {
  return {
    response(req, res) {
      if (req.pathname !== path || res.status !== 200) return res;
      const body = JSON.parse(res.body) as Body;
      edit(body, req);
      return { ...res, body: JSON.stringify(body) };
    },
  };
}

/** Rewrites the query of one path on its way upstream. */
function onQuery(path: string, edit: (query: URLSearchParams) => void): Mutation {
  return {
    request(req) {
      if (req.pathname !== path) return req;
      const query = new URLSearchParams(req.query);
      edit(query);
      return { ...req, query };
    },
  };
}

/** Drops a valid page parameter on its way upstream: every page answers as page 1. */
function pageIgnored(path: string): Mutation {
  return onQuery(path, (q) => {
    if (
      q.getAll("page").length === 1 &&
      /^[0-9]+$/.test(q.get("page") ?? "") &&
      Number(q.get("page")) >= 1 &&
      Number(q.get("page")) <= 1000
    )
      q.delete("page");
  });
}

/**
 * An application that checks a personal stream's key is sent, not that it is the uid's: a wrong
 * key, or the owner's key for another uid, is served 200 (the uid's own stream: the owner's items,
 * or none for a uid it knows nothing of), a fresh answer: its own Date and RateLimit-* (the 401's
 * the server made for it), no cache header. No key at all is still refused.
 */
function keyIgnored(): Mutation {
  const served = new Map<string, ProxiedResponse>();
  const personal = (req: ProxiedRequest) => req.method === "GET" && req.pathname.startsWith("/api/v1/my/");
  return {
    response(req, res) {
      if (!personal(req)) return res;
      const streamOf = `${req.pathname}?uid=${req.query.get("uid")}`;
      if (res.status === 200) served.set(streamOf, res);
      const any = [...served].find(([k]) => k.startsWith(`${req.pathname}?`))?.[1];
      if (res.status !== 401 || req.headers["x-api-key"] === undefined || !any) return res;
      const own = served.get(streamOf);
      const body = own?.body ?? JSON.stringify({ ...(JSON.parse(any.body) as Body), data: [] });
      const fresh = Object.fromEntries(
        Object.entries(res.headers).filter(([k]) => k === "date" || k.startsWith("ratelimit-")),
      );
      return { status: 200, headers: { ...(own ?? any).headers, ...fresh }, body };
    },
  };
}

/**
 * The API itself ignoring its keys (the cause `credentials-ignored`, not a cache); exported for
 * test/stack/causes-nginx.test.ts, which runs it behind nginx too.
 */
export const KEY_IGNORED: PlantedBug = {
  name: "key-ignored",
  breaks: "the API serves a personal stream to a wrong key, and to the owner's key for another uid",
  mutation: keyIgnored(),
  expect: ["credentials-not-cached", "rule:my-follow-credentials", "rule:my-push-credentials"],
  causes: ["credentials-ignored"],
};

/**
 * Sets an alert's local `datetime` and `shorttime` from its `shijianchuo` in `timeZone`. In the
 * contract's zone it keeps an edited timestamp honest; in UTC it is a server on a UTC host.
 */
function stampIn(alert: Record<string, unknown>, timeZone: string): void {
  const t = alert.shijianchuo;
  if (typeof t !== "number") return;
  if (typeof alert.datetime === "string") alert.datetime = localStamp(t, timeZone, "date");
  if (typeof alert.shorttime === "string") alert.shorttime = localStamp(t, timeZone, "time");
}

/**
 * Every JSON answer's alerts (under `data`, or a bare array: the legacy rank file) written with
 * their local date and time in UTC: the timestamp stays right, each field stays valid alone.
 */
function timesInUtc(): Mutation {
  return {
    response(_req, res) {
      if (res.status !== 200 || !/json/.test(res.headers["content-type"] ?? "")) return res;
      const body = JSON.parse(res.body) as Body | Record<string, unknown>[];
      const list = Array.isArray(body) ? body : Array.isArray(body.data) ? body.data : [];
      for (const item of list as unknown[]) {
        if (item !== null && typeof item === "object") stampIn(item as Record<string, unknown>, "UTC");
      }
      return { ...res, body: JSON.stringify(body) };
    },
  };
}

/** Pads a list past `limit` with copies of its last item (same timestamps: order unchanged). */
function padPast(list: Record<string, unknown>[], limit: number): void {
  const last = list.at(-1);
  if (last) while (list.length <= limit) list.push({ ...last });
}

const KNOWN_CATES = new Set(
  "all zuankeba 16 xinzuanba 18 weibo 10 haodan 30 douban 23 kuan 17 xiaodigu 11 huluxia 20 xiaodao 3 qqjishu 6 yyok 7 huodong 8 mianfei 9 shangjin 40".split(
    " ",
  ),
);

const limitOf = (req: ProxiedRequest, name: string, fallback: number) =>
  Number(req.query.get(name) ?? fallback);
/** True when a word-list value is valid (x-words: at most 10 words of at most 50, 200 characters). */
function validWords(v: string | null): boolean {
  if (v === null || v.length > 200) return false;
  const words = v
    .split(/[|#\n]/)
    .map((w) => w.trim())
    .filter(Boolean);
  return words.length > 0 && words.length <= 10 && words.every((w) => [...w].length <= 50);
}

/** A valid price (decimal yuan within the documented range). */
const validPrice = (v: string | null) =>
  v !== null && /^[0-9]+(\.[0-9]+)?$/.test(v) && Number(v) <= 1_000_000;

/** A criterion that excludes nothing, so a search stays a search when its real criterion is removed. */
const NEUTRAL_KP = "zzzz-never-in-any-title";

/** Drops the item at `index` from the answer's data, and keeps its count consistent. */
function shrink(body: Body, index: number): void {
  const list = items(body);
  list.splice(index, 1);
  const meta = body.meta as { count?: number } | undefined;
  if (meta && typeof meta.count === "number") meta.count = list.length;
}

/** Marks a request the planted bug changed on its way upstream (an unknown parameter: ignored there). */
const LATE = "planted_late";

/**
 * A page with an explicit limit from `min` to below `max` starts at its second item: one more is
 * asked upstream and the first dropped, so the page still holds `limit` items and nothing else
 * looks wrong.
 */
function startsLate(path: string, min: number, max: number): Mutation {
  return {
    request(req) {
      const limit = Number(req.query.get("limit"));
      if (req.pathname !== path || req.query.getAll("limit").length !== 1 || !(limit >= min && limit < max))
        return req;
      const query = new URLSearchParams(req.query);
      query.set("limit", String(limit + 1));
      query.set(LATE, "1");
      return { ...req, query };
    },
    response(req, res) {
      if (!req.query.has(LATE) || res.status !== 200) return res;
      const body = JSON.parse(res.body) as Body;
      shrink(body, 0);
      const meta = body.meta as { limit?: number } | undefined;
      if (meta && typeof meta.limit === "number") meta.limit -= 1;
      return { ...res, body: JSON.stringify(body) };
    },
  };
}

const items = (body: Body) => (Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []);
const problem = (status: number, name: string): ProxiedResponse => ({
  status,
  headers: { "content-type": "application/problem+json" },
  body: JSON.stringify({
    type: "/problems/invalid-parameter",
    title: "Invalid",
    status,
    detail: name,
    errors: [{ in: "query", name, reason: "planted" }],
  }),
});

/** How far into its fixed window the planted fixed-window limiter puts each client's first request. */
const FIXED_WINDOW_LEAD_MS = 500;

export const PLANTED: PlantedBug[] = [
  {
    name: "rank-content-at-small-limit",
    breaks: "content shown at rank limit <= 50",
    mutation: onJson("/api/v1/rank", (b) => {
      for (const e of items(b)) e.content ??= "planted content";
    }),
    expect: ["rule:rank-content-omitted"],
  },
  {
    name: "feed-retention-exceeded",
    breaks: "a category stream returns more than 20 items",
    mutation: onJson("/api/v1/feed", (b, req) => {
      const limit = Number(req.query.get("limit") ?? 20);
      const list = items(b);
      const last = list.at(-1);
      if (req.query.get("type") !== "zdm" && last) while (list.length < limit) list.push({ ...last });
    }),
    expect: ["rule:feed-category-retention"],
  },
  {
    name: "search-without-criterion-served",
    breaks: "search without q/kp/mip/mxp answered 200",
    mutation: {
      request(req) {
        const blank = ["q", "kp", "mip", "mxp"].every(
          (n) => (req.query.get(n) ?? "").replace(/[|#\n\s]/g, "") === "",
        );
        const once = ["q", "kp", "mip", "mxp"].every((n) => req.query.getAll(n).length <= 1);
        if (blank && once && req.pathname === "/api/v1/search") {
          const query = new URLSearchParams(req.query);
          for (const n of ["q", "kp", "mip", "mxp"]) query.delete(n);
          query.set("mip", "0");
          return { ...req, query };
        }
        return req;
      },
    },
    expect: ["rule:search-needs-criterion"],
  },
  {
    name: "price-on-unpriced-item",
    breaks: "feed items of unpriced categories carry a price",
    mutation: onJson("/api/v1/feed", (b) => {
      for (const e of items(b)) if (e.cateid === "16" || e.cateid === "23") e.price = 9.9;
    }),
    expect: ["rule:feed-price-only-on-priced-kinds"],
  },
  {
    name: "h5-dropped",
    breaks: "shenghuo records without h5",
    mutation: onJson("/api/v1/shenghuo", (b) => {
      for (const e of items(b)) delete e.h5;
    }),
    expect: ["response-schema", "rule:shenghuo-h5-on-every-record"],
  },
  {
    name: "cates-missing",
    breaks: "with_cates=1 without the category list",
    mutation: onJson("/api/v1/shenghuo", (b) => {
      delete b.cates;
    }),
    expect: ["rule:shenghuo-cates-when-asked"],
  },
  {
    name: "cors-dropped-on-errors",
    breaks: "no Access-Control-Allow-Origin on 4xx",
    mutation: {
      response(_req, res) {
        if (res.status < 400) return res;
        const { "access-control-allow-origin": _, ...headers } = res.headers;
        return { ...res, headers };
      },
    },
    // x-request-gate.answered restates CORS for requests refused before routing (no Host) and for
    // the %2F 404, which only request-gate sends: the rule stated twice, both checks.
    expect: ["cors", "request-gate"],
  },
  {
    name: "retry-after-missing",
    breaks: "429 without Retry-After",
    mutation: {
      response(_req, res) {
        if (res.status !== 429) return res;
        const { "retry-after": _, ...headers } = res.headers;
        return { ...res, headers };
      },
    },
    expect: ["response-headers"],
  },
  {
    name: "no-rate-limit",
    breaks: "the 61st request within a minute is served",
    // Every upstream request leaves from another address, so the real limiter never fires.
    mutation: { upstreamAddress: (_client, n) => `127.200.${Math.floor(n / 250) % 250}.${(n % 250) + 1}` },
    // Its RateLimit-Remaining (59 on every answer, each counted by a fresh client upstream) does not count either.
    codes: ["rate-limit/not-enforced", "rate-limit/remaining-not-counting"],
    expect: ["rate-limit"],
  },
  {
    name: "preflight-counted",
    breaks: "CORS preflights use up the client's 60 requests",
    mutation: faultyLimiter("counts-preflight", 60),
    codes: ["rate-limit/counts-preflight"],
    expect: ["rate-limit"],
  },
  {
    name: "forwarded-for-trusted",
    breaks: "a client's own X-Forwarded-For header picks the address it is counted under",
    // A 4-second window keeps a one-address run short; the limit is the spec's.
    mutation: faultyLimiter("trusts-forwarded-for", 4),
    rate: { limit: 60, windowSeconds: 4 },
    codes: ["rate-limit/trusts-forwarded-for"],
    expect: ["rate-limit"],
  },
  {
    name: "rss-not-limited",
    breaks: "/rss.php is left out of the rate limit (the limit applies to every endpoint)",
    mutation: faultyLimiter("skips-rss", 60),
    codes: ["rate-limit/endpoint-not-limited"],
    expect: ["rate-limit"],
  },
  {
    name: "refused-counted",
    breaks:
      "refused requests are counted, so a client that knocks while refused stays refused past Retry-After",
    // A 4-second window keeps the wait for Retry-After short; the limit is the spec's.
    mutation: faultyLimiter("counts-refused", 4),
    codes: ["rate-limit/not-served-after-wait"],
    rate: { limit: 60, windowSeconds: 4 },
    expect: ["rate-limit"],
    slow: true,
  },
  {
    name: "leaky-bucket",
    breaks:
      "a leaky bucket in place of the sliding window (nginx limit_req burst=60 nodelay): 60 at once, then one a second",
    // A 10-second window (a bucket draining 6 a second) keeps the wait short; the limit is the spec's.
    mutation: faultyLimiter("leaky-bucket", 10),
    rate: { limit: 60, windowSeconds: 10 },
    slow: true,
    codes: ["rate-limit/refills-early", "rate-limit/remaining-not-counting"],
    expect: ["rate-limit"],
    causes: ["limiter-shape"],
  },
  {
    name: "search-costs-two",
    breaks: "every search request takes two units of the limit (the window fills early)",
    // A 10-second window: a spread address whose searches run it out waits its Retry-After (10 s,
    // not a minute) before the run goes on.
    mutation: faultyLimiter("search-costs-two", 10),
    rate: { limit: 60, windowSeconds: 10 },
    codes: ["rate-limit/costs-more"],
    expect: ["rate-limit"],
  },
  {
    name: "search-costs-two-unseen",
    breaks:
      "every search request takes two units of the limit, and no answer carries RateLimit-* (only when refusals begin shows it)",
    // A 10-second window: paced by request count, an address that searches a lot runs out of
    // units and waits its Retry-After (the fault as clients meet it), kept short here.
    mutation: faultyLimiter("search-costs-two-unseen", 10),
    rate: { limit: 60, windowSeconds: 10 },
    codes: [
      "rate-limit/costs-more",
      "response-headers/ratelimit-limit",
      "response-headers/ratelimit-remaining",
      "response-headers/ratelimit-reset",
    ],
    expect: ["response-headers", "rate-limit"],
  },
  {
    name: "client-ips-hidden",
    breaks: "a proxy in front hides client IPs: the limiter counts every client as one",
    mutation: faultyLimiter("counts-clients-together", 4),
    rate: { limit: 60, windowSeconds: 4 },
    codes: ["rate-limit/per-ip"],
    expect: ["rate-limit"],
  },

  {
    name: "meta-mismatch",
    breaks: "the manifest lists 12 rank types",
    mutation: onJson("/api/v1/meta", (b) => {
      const data = b.data as { rank_types?: unknown[] };
      data.rank_types?.pop();
    }),
    expect: ["rule:meta-mirrors-spec"],
  },
  {
    name: "meta-limits-wrong",
    breaks: "the manifest says rank limit goes up to 500",
    mutation: onJson("/api/v1/meta", (b) => {
      const data = b.data as { limits?: { getRank?: { limit?: { maximum?: number } } } };
      const limit = data.limits?.getRank?.limit;
      if (limit) limit.maximum = 500;
    }),
    expect: ["meta-limits"],
  },
  {
    name: "server-error-on-long-value",
    breaks: "500 on a query value longer than 40 characters",
    mutation: {
      request(req) {
        if ([...req.query.values()].some((v) => v.length > 40)) {
          return {
            status: 500,
            headers: { "content-type": "application/problem+json" },
            body: '{"type":"/problems/internal","title":"Internal error","status":500,"detail":"planted"}',
          };
        }
        return req;
      },
    },
    expect: ["no-server-errors"],
  },
  {
    name: "401-bodies-differ",
    breaks: "unknown uid and wrong key get different 401 bodies",
    mutation: {
      response(req, res) {
        if (req.pathname !== "/api/v1/my/follow" || res.status !== 401) return res;
        const body = JSON.parse(res.body) as Record<string, unknown>;
        body.detail = req.headers["x-api-key"] ? "wrong key" : "missing key";
        return { ...res, body: JSON.stringify(body) };
      },
    },
    expect: ["rule:my-follow-credentials"],
  },
  {
    name: "removed-field",
    breaks: "alerts without louzhu (required by the frozen 1.0.0 release, optional in the spec read)",
    mutation: {
      response(req, res) {
        if (
          res.status !== 200 ||
          !res.headers["content-type"]?.includes("json") ||
          req.pathname === "/api/v1/meta"
        )
          return res;
        const body = JSON.parse(res.body) as unknown;
        const list = Array.isArray(body) ? body : items(body as Body);
        for (const e of list as Record<string, unknown>[]) if (e && "louzhu" in e) delete e.louzhu;
        return { ...res, body: JSON.stringify(body) };
      },
    },
    specWithoutLouzhu: true,
    expect: ["versioning"],
  },
  {
    name: "wrong-content-type",
    breaks: "feed served as text/plain",
    mutation: {
      response(req, res) {
        if (req.pathname !== "/api/v1/feed" || res.status !== 200) return res;
        return { ...res, headers: { ...res.headers, "content-type": "text/plain; charset=utf-8" } };
      },
    },
    expect: ["content-type"],
  },
  {
    name: "limit-clamped-silently",
    breaks: "an out-of-range rank limit is clamped instead of refused",
    mutation: {
      request(req) {
        const limit = req.query.get("limit");
        if (req.pathname !== "/api/v1/rank" || limit === null || !/^-?[0-9]+$/.test(limit)) return req;
        const query = new URLSearchParams(req.query);
        query.set("limit", String(Math.min(300, Math.max(1, Number(limit)))));
        return { ...req, query };
      },
    },
    expect: ["invalid-inputs-rejected"],
  },
  {
    name: "valid-page-size-refused",
    breaks: "shenghuo pageSize=100 (the documented maximum) refused",
    mutation: {
      response(req, res) {
        if (
          req.pathname === "/api/v1/shenghuo" &&
          req.query.get("pageSize") === "100" &&
          req.query.get("with_cates") !== "1"
        ) {
          return {
            ...res,
            ...problem(400, "pageSize"),
            headers: { ...res.headers, "content-type": "application/problem+json" },
          };
        }
        return res;
      },
    },
    expect: ["valid-inputs-accepted"],
  },
  {
    name: "undocumented-status",
    breaks: "shenghuo with a keyword answers 203",
    mutation: {
      response(req, res) {
        return req.pathname === "/api/v1/shenghuo" && req.query.get("q") && res.status === 200
          ? { ...res, status: 203 }
          : res;
      },
    },
    expect: ["status-code-documented"],
  },
  {
    name: "comments-as-string",
    breaks: "feed items carry comments as a string",
    mutation: onJson("/api/v1/feed", (b) => {
      for (const e of items(b)) if ("comments" in e) e.comments = String(e.comments);
    }),
    expect: ["response-schema"],
  },
  {
    name: "rank-outside-window",
    breaks: "rank entries a year older than their window",
    mutation: onJson("/api/v1/rank", (b) => {
      for (const e of items(b)) {
        if (typeof e.shijianchuo !== "number") continue;
        // A year older throughout: the local date and time move with the timestamp.
        e.shijianchuo -= 400 * 86400;
        stampIn(e, "Asia/Shanghai");
      }
    }),
    // The legacy file (untouched) is then another rank than the API's for the same act.
    expect: ["rule:rank-entries-in-window", "relation:legacy-rank-equals-rank"],
  },
  {
    name: "rank-content-missing-at-large-limit",
    breaks: "no content at rank limit > 50",
    mutation: onJson("/api/v1/rank", (b) => {
      for (const e of items(b)) delete e.content;
    }),
    expect: ["rule:rank-content-present"],
  },
  {
    name: "rank-count-over-limit",
    breaks: "rank returns one entry more than limit",
    mutation: onJson("/api/v1/rank", (b, req) => {
      const limit = limitOf(req, "limit", 20);
      if (limit < 300) padPast(items(b), limit);
    }),
    expect: [
      "rule:rank-count-within-limit",
      "relation:rank-limit-prefix",
      "relation:legacy-rank-equals-rank",
    ],
  },
  {
    name: "rank-order-reversed",
    breaks: "rank ordered by comments ascending",
    mutation: onJson("/api/v1/rank", (b) => {
      items(b).reverse();
    }),
    expect: ["rule:rank-order", "relation:rank-limit-prefix", "relation:legacy-rank-equals-rank"],
  },
  {
    name: "rank-price-on-unpriced",
    breaks: "rank entries of unpriced categories carry a price",
    mutation: onJson("/api/v1/rank", (b) => {
      for (const e of items(b)) if (e.cateid === "16" || e.cateid === "23") e.price = 1;
    }),
    expect: ["rule:rank-price-only-on-priced-kinds"],
  },
  {
    name: "rank-act-defaulted",
    breaks: "a missing act is served as the one-hour rank",
    mutation: onQuery("/api/v1/rank", (q) => {
      if (!q.has("act")) q.set("act", "yixiaoshi");
    }),
    expect: ["invalid-inputs-rejected", "rule:rank-act-required"],
  },
  {
    name: "feed-wrong-category",
    breaks: "a category stream carries an item of another (priced) category",
    mutation: onJson("/api/v1/feed", (b, req) => {
      const first = items(b)[0];
      if (first && req.query.get("type") !== "zdm" && req.query.get("cate"))
        first.cateid = first.cateid === "10" ? "30" : "10";
    }),
    expect: ["rule:feed-category-filter"],
  },
  {
    name: "feed-oldest-first",
    breaks: "the feed snapshot is ordered oldest first",
    mutation: onJson("/api/v1/feed", (b, req) => {
      if (req.query.get("type") !== "zdm") items(b).reverse();
    }),
    expect: ["rule:feed-newest-first", "relation:feed-limit-prefix"],
  },
  {
    name: "feed-pages",
    breaks: "the feed pages (page=2 drops the first item)",
    mutation: onJson("/api/v1/feed", (b, req) => {
      if (req.query.has("page")) items(b).shift();
    }),
    expect: ["rule:feed-snapshot-no-paging"],
  },
  {
    name: "feed-zdm-with-cate-served",
    breaks: "type=zdm with a cate is served (cate ignored)",
    mutation: onQuery("/api/v1/feed", (q) => {
      if (q.get("type") === "zdm" && q.getAll("cate").length === 1 && KNOWN_CATES.has(q.get("cate") ?? ""))
        q.delete("cate");
    }),
    expect: ["rule:feed-zdm-excludes-cate"],
  },
  {
    name: "search-ignores-q",
    breaks: "search results ignore the q words",
    mutation: onQuery("/api/v1/search", (q) => {
      if (q.getAll("q").length === 1 && !q.has("kp") && validWords(q.get("q"))) {
        q.delete("q");
        q.set("kp", NEUTRAL_KP);
      }
    }),
    expect: ["rule:search-or-words", "relation:search-block-only-removes"],
  },
  {
    name: "search-ignores-kp",
    breaks: "search results ignore the block words",
    mutation: onQuery("/api/v1/search", (q) => {
      const kp = q.getAll("kp");
      if (kp.length === 1 && validWords(kp[0] ?? null)) q.set("kp", NEUTRAL_KP);
    }),
    // Ignoring kp ignores a kp that does not decode too (query-decoding's `kp=%E5%88` is served).
    expect: ["query-decoding", "rule:search-block-words"],
  },
  {
    name: "search-ignores-price",
    breaks: "search results ignore mip/mxp",
    mutation: onQuery("/api/v1/search", (q) => {
      const cate = q.get("cate");
      const unpriced = cate && !["all", "10", "30", "weibo", "haodan"].includes(cate);
      const once = ["mip", "mxp", "kp"].every((n) => q.getAll(n).length <= 1);
      const prices = ["mip", "mxp"].filter((n) => q.get(n));
      const valid = prices.length > 0 && prices.every((n) => validPrice(q.get(n)));
      if (
        !unpriced &&
        once &&
        valid &&
        Number(q.get("mip") ?? 0) <= Number(q.get("mxp") ?? Infinity) &&
        !q.get("kp")
      ) {
        q.delete("mip");
        q.delete("mxp");
        q.set("kp", NEUTRAL_KP);
      }
    }),
    // Ignoring the bounds serves the empty range mip=9.9000000000000000001&mxp=9.9 too.
    expect: ["rule:search-price-range", "rule:search-price-bounds-ordered"],
  },
  {
    name: "search-bounds-swapped",
    breaks: "mip above mxp is served (bounds swapped silently)",
    mutation: onQuery("/api/v1/search", (q) => {
      const mip = Number(q.get("mip"));
      const mxp = Number(q.get("mxp"));
      const single = q.getAll("mip").length === 1 && q.getAll("mxp").length === 1;
      if (single && validPrice(q.get("mip")) && validPrice(q.get("mxp")) && mip > mxp) {
        q.set("mip", String(mxp));
        q.set("mxp", String(mip));
      }
    }),
    expect: ["rule:search-price-bounds-ordered"],
  },
  {
    name: "search-wrong-category",
    breaks: "a category search carries a result of another (priced) category",
    mutation: onJson("/api/v1/search", (b, req) => {
      const first = items(b)[0];
      const cate = req.query.get("cate");
      if (first && cate && cate !== "all") first.cateid = first.cateid === "10" ? "30" : "10";
    }),
    expect: ["rule:search-category-filter"],
  },
  {
    name: "search-count-over-limit",
    breaks: "search returns one result more than limit",
    mutation: onJson("/api/v1/search", (b, req) => {
      const limit = limitOf(req, "limit", 20);
      if (limit < 50) padPast(items(b), limit);
    }),
    expect: [
      "rule:search-count-within-limit",
      "relation:search-pages-disjoint",
      "relation:search-last-page-count",
      "relation:search-limit-prefix",
    ],
  },
  {
    name: "shenghuo-cates-always",
    breaks: "the category list comes without with_cates=1",
    mutation: onJson("/api/v1/shenghuo", (b) => {
      b.cates ??= [];
    }),
    expect: ["rule:shenghuo-no-cates-otherwise"],
  },
  {
    name: "shenghuo-count-over-page-size",
    breaks: "shenghuo returns one record more than pageSize",
    mutation: onJson("/api/v1/shenghuo", (b, req) => {
      const size = limitOf(req, "pageSize", 20);
      if (size < 100) padPast(items(b), size);
    }),
    expect: [
      "rule:shenghuo-count-within-page-size",
      "relation:shenghuo-pages-disjoint",
      "relation:shenghuo-last-page-count",
    ],
  },
  {
    name: "shenghuo-ignores-q",
    breaks: "shenghuo ignores the keyword",
    mutation: onQuery("/api/v1/shenghuo", (q) => {
      if (q.getAll("q").length === 1 && validWords(q.get("q"))) q.delete("q");
    }),
    expect: ["rule:shenghuo-keyword"],
  },
  {
    name: "shenghuo-ignores-cate",
    breaks: "shenghuo ignores the activity category",
    mutation: onQuery("/api/v1/shenghuo", (q) => {
      if (q.getAll("cate").length === 1 && /^[a-z0-9_-]{1,32}$/.test(q.get("cate") ?? "")) q.delete("cate");
    }),
    expect: ["rule:shenghuo-category-filter"],
  },
  {
    name: "my-push-over-limit",
    breaks: "the push-hit stream returns one hit more than limit",
    mutation: onJson("/api/v1/my/push", (b, req) => {
      const limit = limitOf(req, "limit", 20);
      if (limit < 50) padPast(items(b), limit);
    }),
    expect: ["rule:my-push-count-within-limit"],
  },
  {
    name: "legacy-rank-content",
    breaks: "the legacy rank file carries content",
    mutation: {
      response(req, res) {
        if (!req.pathname.startsWith("/plus/json/rank/") || res.status !== 200) return res;
        const list = JSON.parse(res.body) as Record<string, unknown>[];
        for (const e of list) e.content = "planted";
        return { ...res, body: JSON.stringify(list) };
      },
    },
    expect: ["rule:legacy-rank-content-omitted"],
  },
  {
    name: "feed-count-over-limit",
    breaks: "the feed returns one item more than limit (within retention)",
    mutation: onJson("/api/v1/feed", (b, req) => {
      const limit = limitOf(req, "limit", 20);
      if (limit + 1 <= (req.query.get("type") === "zdm" ? 30 : 20)) padPast(items(b), limit);
    }),
    expect: ["rule:feed-count-within-limit", "relation:feed-limit-prefix"],
  },
  {
    name: "feed-zdm-retention-exceeded",
    breaks: "the zdm stream returns 31 items",
    mutation: onJson("/api/v1/feed", (b, req) => {
      if (req.query.get("type") === "zdm" && limitOf(req, "limit", 20) > 30) padPast(items(b), 30);
    }),
    expect: ["rule:feed-zdm-retention"],
  },
  {
    name: "feed-zdm-wrong-shape",
    breaks: "zdm items typed zdm instead of smzdm (the schema's const says so too)",
    mutation: onJson("/api/v1/feed", (b, req) => {
      if (req.query.get("type") === "zdm") for (const e of items(b)) e.type = "zdm";
    }),
    expect: ["response-schema", "rule:feed-zdm-shape"],
  },
  {
    name: "search-price-on-unpriced",
    breaks: "search results of unpriced categories carry a price",
    mutation: onJson("/api/v1/search", (b, req) => {
      if (req.query.get("mip") || req.query.get("mxp")) return;
      for (const e of items(b)) if (e.cateid === "16" || e.cateid === "23") e.price = 1;
    }),
    expect: ["rule:search-price-only-on-priced-kinds"],
  },
  {
    name: "search-price-filter-unpriced-refused",
    breaks: "a price filter on an unpriced category is refused with 400",
    mutation: {
      response(req, res) {
        const cate = req.query.get("cate");
        const priced = !cate || ["all", "10", "30", "weibo", "haodan"].includes(cate);
        if (req.pathname !== "/api/v1/search" || res.status !== 200 || priced) return res;
        if (!req.query.get("mip") && !req.query.get("mxp")) return res;
        return {
          ...res,
          ...problem(400, "cate"),
          headers: { ...res.headers, "content-type": "application/problem+json" },
        };
      },
    },
    expect: ["valid-inputs-accepted", "rule:search-price-filter-unpriced-category"],
  },
  {
    name: "search-price-scope-missing",
    breaks: "search answers without meta.price_scope (required by the schema too)",
    mutation: onJson("/api/v1/search", (b) => {
      delete (b.meta as Record<string, unknown>).price_scope;
    }),
    expect: [
      "response-schema",
      "rule:search-price-scope-stated",
      "rule:search-price-filter-unpriced-category",
    ],
  },
  {
    name: "my-follow-over-limit",
    breaks: "the follow-hit stream returns one hit more than limit",
    mutation: onJson("/api/v1/my/follow", (b, req) => {
      const limit = limitOf(req, "limit", 20);
      if (limit < 50) padPast(items(b), limit);
    }),
    expect: ["rule:my-follow-count-within-limit"],
  },
  {
    name: "401-push-bodies-differ",
    breaks: "the push stream's 401 says whether the uid exists",
    mutation: {
      response(req, res) {
        if (req.pathname !== "/api/v1/my/push" || res.status !== 401) return res;
        const body = JSON.parse(res.body) as Record<string, unknown>;
        body.detail = req.query.get("uid") === "999999998" ? "no such uid" : "wrong key";
        return { ...res, body: JSON.stringify(body) };
      },
    },
    expect: ["rule:my-push-credentials"],
  },
  {
    name: "legacy-rank-51",
    breaks: "the legacy rank file holds 51 entries (the schema's maxItems says so too)",
    mutation: {
      response(req, res) {
        if (!req.pathname.startsWith("/plus/json/rank/") || res.status !== 200) return res;
        const list = JSON.parse(res.body) as Record<string, unknown>[];
        padPast(list, 50);
        return { ...res, body: JSON.stringify(list) };
      },
    },
    expect: ["response-schema", "rule:legacy-rank-count", "relation:legacy-rank-equals-rank"],
  },
  // Too little: each answer valid alone, the lie shows only against a second answer (x-relations).
  {
    name: "search-first-word-only",
    breaks: "search reads only the first word of q",
    mutation: onQuery("/api/v1/search", (q) => {
      const v = q.getAll("q");
      if (v.length === 1 && validWords(v[0] ?? null)) q.set("q", (v[0] ?? "").split(/[|#\n]/)[0] ?? "");
    }),
    expect: ["relation:search-or-adds"],
  },
  {
    name: "search-block-drops-more",
    breaks: "a block word also drops the newest result, whatever it holds",
    mutation: onJson("/api/v1/search", (b, req) => {
      if (validWords(req.query.get("kp"))) shrink(b, 0);
    }),
    expect: ["relation:search-block-only-removes"],
  },
  {
    name: "search-price-bounds-exclusive",
    breaks: "mip and mxp exclude an alert priced exactly at them",
    mutation: onJson("/api/v1/search", (b, req) => {
      const bounds = ["mip", "mxp"]
        .map((n) => req.query.get(n))
        .filter(validPrice)
        .map(Number);
      b.data = items(b).filter((a) => !bounds.includes(a.price as number));
    }),
    expect: ["relation:search-price-bounds-inclusive"],
  },
  {
    name: "search-page-ignored",
    breaks: "search ignores page: page 2 repeats page 1",
    mutation: pageIgnored("/api/v1/search"),
    // Every page answers page 1: the page after the last holds page 1's items too.
    expect: [
      "relation:search-pages-disjoint",
      "relation:search-last-page-count",
      "relation:search-after-last-page-empty",
    ],
  },
  {
    name: "search-short-page-starts-late",
    breaks: "a search page with a limit below 50 starts at its second result",
    mutation: startsLate("/api/v1/search", 1, 50),
    expect: ["relation:search-limit-prefix"],
  },
  {
    name: "rank-short-rank-starts-late",
    breaks: "a rank with a limit from 51 to 299 starts at its second entry",
    // Above 50 only: one more asked at 50 would cross into the answers that carry content.
    mutation: startsLate("/api/v1/rank", 51, 300),
    expect: ["relation:rank-limit-prefix"],
  },
  {
    name: "rank-wide-window-misses-last-hour",
    breaks: "ranks of windows longer than an hour leave out the last hour's entries",
    mutation: onJson("/api/v1/rank", (b, req) => {
      const hourAgo = Date.now() / 1000 - 3600;
      // Today is a window longer than an hour only from 01:00 on.
      const today = localMidnight(hourAgo + 3600, "Asia/Shanghai", 0);
      if (req.query.get("act") === "yixiaoshi" || (req.query.get("act") === "jintian" && today > hourAgo))
        return;
      b.data = items(b).filter((e) => (e.shijianchuo as number) < hourAgo);
    }),
    expect: ["relation:rank-windows-nest"],
  },
  {
    name: "feed-short-snapshot-starts-late",
    breaks: "a snapshot with a limit below 50 starts at its second item",
    mutation: startsLate("/api/v1/feed", 1, 50),
    expect: ["relation:feed-limit-prefix"],
  },
  {
    name: "feed-category-misses-newest",
    breaks: "a category stream leaves out its newest item",
    mutation: onJson("/api/v1/feed", (b, req) => {
      const cate = req.query.get("cate");
      if (cate && cate !== "all" && !req.query.get("type")) shrink(b, 0);
    }),
    expect: ["relation:feed-category-complete"],
  },
  {
    name: "shenghuo-keyword-misses-newest",
    breaks: "the activity keyword search leaves out its newest match",
    mutation: onJson("/api/v1/shenghuo", (b, req) => {
      if (validWords(req.query.get("q"))) shrink(b, 0);
    }),
    // Page 1 of a keyword then holds one fewer than its total leaves; but the last-page count now
    // gets its evidence without a keyword (its first fallback asks a page size the total does not
    // fill evenly), so only the keyword relation meets the bug (issue 37).
    expect: ["relation:shenghuo-keyword-complete"],
  },
  // The stack in front of a correct API (planted/stack.ts).
  {
    name: "compressed-without-vary",
    breaks: "a proxy gzips answers for clients that offer it, without Vary: Accept-Encoding",
    mutation: compressedWithoutVary,
    codes: ["content-encoding/no-vary"],
    expect: ["content-encoding"],
  },
  {
    name: "compressed-unasked",
    breaks: "a proxy gzips every answer, whether the client offered gzip or not",
    mutation: compressedUnasked,
    codes: ["content-encoding/not-offered"],
    expect: ["content-encoding"],
  },
  {
    name: "compressed-twice",
    breaks: "a proxy gzips an answer twice under one Content-Encoding: gzip",
    mutation: compressedTwice,
    codes: ["content-encoding/undecodable"],
    expect: ["content-encoding"],
  },
  {
    name: "compressed-truncated",
    breaks: "a proxy's gzip stream is cut short",
    mutation: compressedTruncated,
    codes: ["content-encoding/undecodable"],
    expect: ["content-encoding"],
  },
  {
    name: "cache-ignores-key",
    breaks: "a shared cache keyed on the URL serves a personal stream to requests without the key",
    mutation: cacheIgnoringKey(),
    // Over the limit too, the cache answers the personal streams in the limiter's place.
    expect: [
      "credentials-not-cached",
      "rate-limit",
      "rule:my-follow-credentials",
      "rule:my-push-credentials",
    ],
    causes: ["cache-answered"],
  },
  {
    name: "long-url-refused-by-proxy",
    breaks: "a proxy in front answers a request line over 4 KB with its own 414 HTML page",
    mutation: longUrlRefusedByProxy,
    expect: [
      "status-code-documented",
      "valid-inputs-accepted",
      "invalid-inputs-rejected",
      "cors",
      "cache-control",
    ],
    causes: ["another-component-414"],
  },
  {
    name: "long-header-refused-by-proxy",
    breaks: "a proxy in front answers a header line over 8 KB with an empty 400 (Varnish's http_req_hdr_len)",
    mutation: longHeaderRefusedByProxy,
    expect: ["request-gate"],
    codes: ["request-gate/head-over-common-limit", "request-gate/head-under-cap"],
    causes: ["another-component-gate"],
  },
  {
    name: "waf-blocks-pipes",
    breaks: "a WAF in front answers its own 403 page to any query holding |, the API's word separator",
    mutation: wafBlocksPipes,
    expect: ["status-code-documented", "valid-inputs-accepted", "cors", "cache-control"],
    causes: ["another-component-403"],
  },
  {
    name: "shenghuo-page-ignored",
    breaks: "shenghuo ignores page: page 2 repeats page 1",
    mutation: pageIgnored("/api/v1/shenghuo"),
    // Every page answers page 1: the page after the last holds page 1's items too.
    expect: [
      "relation:shenghuo-pages-disjoint",
      "relation:shenghuo-last-page-count",
      "relation:shenghuo-after-last-page-empty",
    ],
  },
  ...TOO_LITTLE,
  ...CONTRACT_POINTS,
  // Conformance power, round five: RateLimit-Reset means what the spec says.
  {
    name: "reset-always-window",
    breaks:
      "RateLimit-Reset always states the window's length, whatever the count (requests remaining, or a 429's real wait)",
    mutation: resetAlwaysWindow(),
    // Its 429s disagree with Retry-After only when sent seconds into the window: the codes vary.
    expect: ["rate-limit-reset"],
  },
  // Conformance power, round five: totals are honest beyond the last page.
  {
    name: "search-total-capped",
    breaks:
      "search's meta.total is capped at 100 (a search engine's default total cap) while the pages after it still hold results",
    mutation: onJson("/api/v1/search", (body) => {
      const meta = body.meta as { total?: unknown } | undefined;
      if (meta && typeof meta.total === "number" && meta.total > TOTAL_CAP) meta.total = TOTAL_CAP;
    }),
    // At the last-page count's fallback page size (49), which 100 does not fill evenly, the last
    // page the capped total implies holds more than it leaves: the page arithmetic sees the cap too.
    expect: ["relation:search-last-page-count", "relation:search-after-last-page-empty"],
  },
  // Conformance power, round five: time fields agree with the timestamp in the contract's zone.
  {
    name: "times-in-utc",
    breaks: "alerts' datetime and shorttime written in UTC (a server on a UTC host), shijianchuo right",
    mutation: timesInUtc(),
    expect: [
      "rule:rank-local-times",
      "rule:feed-local-times",
      "rule:search-local-times",
      "rule:my-follow-local-times",
      "rule:my-push-local-times",
      "rule:legacy-rank-local-times",
    ],
  },
  // Relation evidence that could have shown a violation (issue 37).
  {
    name: "legacy-rank-wider-window",
    breaks:
      "the legacy rank file of a window serves the next wider window's file (jintian's file is ershisixiaoshi's), each file valid alone",
    mutation: legacyFileOfWiderWindow(),
    expect: ["relation:legacy-rank-equals-rank"],
  },
  {
    name: "shenghuo-total-capped",
    breaks:
      "shenghuo's meta.total is capped at 100 (a search engine's default total cap) while the pages after it still hold activities",
    mutation: onJson("/api/v1/shenghuo", (body) => {
      const meta = body.meta as { total?: unknown } | undefined;
      if (meta && typeof meta.total === "number" && meta.total > TOTAL_CAP) meta.total = TOTAL_CAP;
    }),
    // At a page size the capped total does not fill evenly (the fallback's 99), the last page it
    // implies holds more than it leaves: the page arithmetic sees the cap too.
    expect: ["relation:shenghuo-last-page-count", "relation:shenghuo-after-last-page-empty"],
  },
  // Issue 37: the API ignoring its keys, run by the planted matrices like every other bug.
  KEY_IGNORED,
  // Issue 37: a fixed window in place of the sliding one.
  {
    name: "fixed-window",
    breaks:
      "a fixed window in place of the sliding one (counts reset whole at each boundary: up to 120 within seconds across it)",
    // A 10-second window, each client's first request half a second into one: the burst ends before
    // its boundary, Retry-After points at it, and after the wait the limit is whole again.
    mutation: faultyLimiter("fixed-window", 10, { store: new FixedWindowStore(FIXED_WINDOW_LEAD_MS) }),
    rate: { limit: 60, windowSeconds: 10 },
    slow: true,
    codes: ["rate-limit/resets-whole"],
    expect: ["rate-limit"],
    causes: ["limiter-shape"],
  },
];

/**
 * Every answer carrying RateLimit-Reset states the window there (a limiter reporting its window, not
 * its count): the spec's, or `inForce` when the limiter counts in a shorter one (field runs).
 */
export function resetAlwaysWindow(inForce?: number): Mutation {
  let windowSeconds = inForce === undefined ? "" : String(inForce);
  void loadSpec().then((spec) => {
    windowSeconds ||= String(spec.rateLimit.window_seconds);
  });
  return {
    response(_req, res) {
      if (res.headers["ratelimit-reset"] === undefined || !windowSeconds) return res;
      return { ...res, headers: { ...res.headers, "ratelimit-reset": windowSeconds } };
    },
  };
}

/**
 * The legacy rank file of each window answered with the file of the narrowest window containing
 * it (the rank-windows-nest relation's own notion of "wider"), as an off-by-one in a table of
 * windows would: every file is a valid rank, only the comparison with the API's rank of the same
 * act shows it, and only on an act whose rank differs from its wider window's.
 */
function legacyFileOfWiderWindow(): Mutation {
  let spec: Spec | undefined;
  void loadSpec().then((s) => {
    spec = s;
  });
  return {
    request(req) {
      const act = /^\/plus\/json\/rank\/([a-z]+)\.json$/.exec(req.pathname)?.[1];
      // An unknown act stays the server's 400.
      const wider =
        act && spec && act in spec.rankWindows.windows
          ? widerWindow(spec, act, Date.now() / 1000)
          : undefined;
      return wider ? { ...req, pathname: `/plus/json/rank/${wider}.json` } : req;
    },
  };
}

/**
 * The cap of search-total-capped and shenghuo-total-capped: a multiple of the page sizes the suite
 * asks first (20, 50), so the last page it implies is full and adds up; the page after it shows
 * the results it hides, and so does the last page at a fallback page size that 100 does not divide.
 */
const TOTAL_CAP = 100;
