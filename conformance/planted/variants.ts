/**
 * Planted bugs: one documented behaviour broken each, and the checks that must then fail
 * (exactly these). Where the spec states a rule twice (a required field that a rule also
 * demands), both checks are expected.
 */
import type { Mutation, ProxiedRequest, ProxiedResponse } from "./proxy.ts";

export interface PlantedBug {
  name: string;
  breaks: string;
  mutation: Mutation;
  expect: string[];
  /** The run reads a spec variant whose Alert no longer requires `louzhu` (a v1.x draft that dropped it). */
  specWithoutLouzhu?: boolean;
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
    expect: ["cors"],
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
      for (const e of items(b)) if (typeof e.shijianchuo === "number") e.shijianchuo -= 400 * 86400;
    }),
    expect: ["rule:rank-entries-in-window"],
  },
];
