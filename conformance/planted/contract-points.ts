/**
 * Planted bugs of the contract's last open points (x-methods, x-query-string.decoding, the order
 * of problems, the trim set, price bounds, the uid as sent): each the other choice an
 * implementation written from an unclear spec made.
 */
import type { Mutation, ProxiedResponse } from "./proxy.ts";
import type { PlantedBug } from "./variants.ts";

const problemAnswer = (
  status: number,
  type: string,
  extra: Record<string, unknown> = {},
): ProxiedResponse => ({
  status,
  headers: {
    "content-type": "application/problem+json",
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
    "cache-control": "no-cache",
  },
  body: JSON.stringify({ type: `/problems/${type}`, title: type, status, detail: type, ...extra }),
});

/** HEAD refused as a method the API does not serve. */
const headRefused: Mutation = {
  request: (req) => (req.method === "HEAD" ? problemAnswer(405, "method-not-allowed") : req),
};

/** Only preflights answered: an OPTIONS without Access-Control-Request-Method gets a 405. */
const plainOptionsRefused: Mutation = {
  request: (req) =>
    req.method === "OPTIONS" && req.headers["access-control-request-method"] === undefined
      ? problemAnswer(405, "method-not-allowed")
      : req,
};

/**
 * The query re-encoded on its way (a lenient decoder): `%zz` reaches the API as the text `%zz`.
 * A request of its own (new headers object) is one the proxy forwards as URLSearchParams reads it.
 */
const lenientDecoding: Mutation = {
  request: (req) => ({ ...req, headers: { ...req.headers }, query: new URLSearchParams(req.query) }),
};

/** Parameters checked before the search criterion: a search asking nothing with `limit=0` is an invalid-parameter naming limit alone. */
const criterionAfterParameters: Mutation = {
  response(req, res) {
    if (req.pathname !== "/api/v1/search" || res.status !== 400) return res;
    const body = JSON.parse(res.body) as { type?: string; errors?: { name: string; reason: string }[] };
    if (!body.type?.endsWith("/missing-search-criterion")) return res;
    const others = (body.errors ?? []).filter((e) => !e.reason.startsWith("give at least one of"));
    if (others.length === 0) return res;
    return {
      ...res,
      body: JSON.stringify({
        ...body,
        type: "/problems/invalid-parameter",
        title: "Invalid request parameter",
        errors: others,
      }),
    };
  },
};

/** Parameters read before the limit: over it, a request with `limit=0` gets the 400, not the 429. */
const parametersBeforeLimit: Mutation = {
  response(req, res) {
    if (res.status !== 429 || req.query.get("limit") !== "0") return res;
    const refused = problemAnswer(400, "invalid-parameter", {
      errors: [{ in: "query", name: "limit", reason: "must be at least 1" }],
    });
    const rate = Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.startsWith("ratelimit-")));
    return { ...refused, headers: { ...refused.headers, ...rate } };
  },
};

/**
 * Words trimmed of Unicode's White_Space set (Python's str.strip): U+0085 trimmed, U+FEFF kept.
 * Upstream trims as the spec says, so a kept U+FEFF stands in as U+180E (a character no set trims).
 */
const whiteSpaceTrim: Mutation = {
  request(req) {
    const q = req.query.get("q");
    if (req.pathname !== "/api/v1/search" || q === null || !/[\u0085\uFEFF]/.test(q)) return req;
    const query = new URLSearchParams(req.query);
    query.set("q", q.replace(/^\u0085+|\u0085+$/g, "").replaceAll("\uFEFF", "\u180E"));
    return { ...req, query };
  },
};

/** Price bounds compared as binary doubles: a minimum written past a double's digits rounds down onto a price. */
const binaryPriceBounds: Mutation = {
  request(req) {
    const mip = req.query.get("mip");
    if (req.pathname !== "/api/v1/search" || mip === null || !/\.\d{16,}$/.test(mip)) return req;
    const query = new URLSearchParams(req.query);
    query.set("mip", String(Number(mip)));
    return { ...req, query };
  },
};

/** The uid read as an integer: `010001` authenticates the account 10001. */
const uidAsInteger: Mutation = {
  request(req) {
    const uid = req.query.getAll("uid");
    if (!req.pathname.startsWith("/api/v1/my/") || uid.length !== 1 || !/^0+[0-9]+$/.test(uid[0] ?? ""))
      return req;
    const query = new URLSearchParams(req.query);
    query.set("uid", String(Number(uid[0])));
    return { ...req, query };
  },
};

export const CONTRACT_POINTS: PlantedBug[] = [
  {
    name: "head-refused",
    breaks: "HEAD answered 405 where GET is served (x-methods.head)",
    mutation: headRefused,
    expect: ["head-as-get"],
  },
  {
    name: "plain-options-refused",
    breaks: "an OPTIONS that is not a preflight answered 405 (x-methods.options)",
    mutation: plainOptionsRefused,
    expect: ["options-answered"],
  },
  {
    name: "query-decoded-leniently",
    breaks: "a value that does not decode (%zz, cut UTF-8) read literally or with U+FFFD, and served",
    mutation: lenientDecoding,
    expect: ["query-decoding"],
  },
  {
    name: "criterion-after-parameters",
    breaks: "a search without criterion and with limit=0 answered invalid-parameter naming limit alone",
    mutation: criterionAfterParameters,
    expect: ["rule:search-needs-criterion"],
  },
  {
    name: "words-trimmed-of-white-space",
    breaks:
      "search words trimmed of Unicode White_Space (U+0085 trimmed, U+FEFF kept) instead of ECMAScript's set",
    mutation: whiteSpaceTrim,
    expect: ["valid-inputs-accepted", "rule:search-needs-criterion"],
  },
  {
    name: "price-bounds-binary",
    breaks:
      "mip compared as a binary double: mip=9.9000000000000000001&mxp=9.9 served as the range [9.9, 9.9]",
    mutation: binaryPriceBounds,
    // Shrunk to mip alone, the same request shows the price 9.9 kept under a minimum above it.
    expect: ["rule:search-price-range", "rule:search-price-bounds-ordered"],
  },
  {
    name: "uid-read-as-integer",
    breaks: "uid=010001 with the key of 10001 is served the account's stream (the uid parsed as an integer)",
    mutation: uidAsInteger,
    expect: ["rule:my-follow-credentials", "rule:my-push-credentials"],
  },
  {
    name: "parameters-before-limit",
    breaks: "over the limit, a request with limit=0 answered 400 instead of 429",
    mutation: parametersBeforeLimit,
    expect: ["rate-limit"],
    codes: ["rate-limit/parameters-before-limit"],
  },
];
