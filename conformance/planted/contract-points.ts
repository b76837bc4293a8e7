/**
 * Planted bugs of the contract's last open points (x-methods, x-query-string.decoding, the order
 * of problems, the trim set, price bounds, the uid as sent): each the other choice an
 * implementation written from an unclear spec made.
 */
import type { Mutation, ProxiedResponse } from "./proxy.ts";
import type { PlantedBug } from "./variants.ts";

const problemAnswer = (status: number, type: string, extra: Record<string, unknown> = {}): ProxiedResponse => ({
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

/** The query re-encoded on its way (a lenient decoder): `%zz` reaches the API as the text `%zz`. */
const lenientDecoding: Mutation = {
  request: (req) => ({ ...req, query: new URLSearchParams(req.query) }),
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
];
