/**
 * Root causes from evidence only: a status another component answers (against the API's own
 * answers), a limiter in front, a limiter of another shape, a cache answering; the rest unexplained.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Exchange, Violation } from "../types.ts";
import { AnswerCensus, answerFacts, findCauses } from "./causes.ts";

const spec = await loadSpec();
const API = { "access-control-allow-origin": "*", "ratelimit-limit": "60", "ratelimit-remaining": "5" };
const NGINX_PAGE = { "content-type": "text/html", server: "nginx" };

function answer(status: number, headers: Record<string, string>, operationId = "getRank"): Exchange {
  const media = headers["content-type"]?.split(";")[0];
  return {
    request: { method: "GET", pathname: "/x", query: [], headers: {}, label: "t" },
    url: "http://t/x",
    operation: spec.operation(operationId),
    status,
    headers,
    ...(media ? { mediaType: media } : {}),
    text: "",
    body: "",
    sentAt: 1,
    receivedAt: 2,
  };
}

function violation(
  check: string,
  code: string,
  e: Exchange,
  severity: Violation["severity"] = "high",
): Violation {
  return {
    check,
    code,
    title: `${check} ${code}`,
    received: null,
    documented: null,
    severity,
    operation: e.operation?.operationId ?? "?",
    request: "curl",
    seed: 1,
    replay: "r",
    answer: answerFacts(e),
  };
}

function census(...exchanges: Exchange[]): AnswerCensus {
  const c = new AnswerCensus();
  for (const e of exchanges) c.add(e);
  return c;
}

describe("findCauses", () => {
  it("a status every answer of which is an HTML page without CORS: another component, explaining every row of it", () => {
    const page = answer(414, NGINX_PAGE, "getMeta");
    const rows = [
      violation("status-code-documented", "status-code-documented", page),
      violation("cors", "cors/allow-origin", page, "medium"),
      violation("rule:rank-order", "rule:rank-order", answer(200, API)),
    ];
    const causes = findCauses(spec, rows, census(answer(200, API), page, answer(400, API)));
    expect(causes.map((c) => [c.id, c.severity, c.count])).toEqual([["another-component-414", "high", 2]]);
    expect(causes[0]?.title).toBe(
      "Another component in front answers 414 itself, not the API: text/html, no CORS, no RateLimit-*, Server: nginx",
    );
    expect(rows.map((v) => v.cause)).toEqual(["another-component-414", "another-component-414", undefined]);
  });

  it("the API's own 400 is no other component's", () => {
    const rows = [violation("invalid-inputs-rejected", "invalid-inputs-rejected/names", answer(400, API))];
    expect(findCauses(spec, rows, census(answer(200, API), answer(400, API)))).toEqual([]);
  });

  it("foreign 429s and no RateLimit-* anywhere: a limiter in front, explaining the rate-limit rows too", () => {
    const served = { "access-control-allow-origin": "*" };
    const refused = answer(429, NGINX_PAGE);
    const rows = [
      violation("content-type", "content-type", refused),
      violation("response-headers", "response-headers/ratelimit-limit", answer(200, served), "medium"),
      violation("rate-limit", "rate-limit/counts-preflight", refused),
    ];
    const causes = findCauses(spec, rows, census(answer(200, served), refused));
    expect(causes.map((c) => c.id)).toEqual(["limiter-in-front"]);
    expect(causes[0]?.title).toMatch(
      /its 429s are text\/html, no CORS, no RateLimit-\*, no Retry-After, Server: nginx; no answer carries RateLimit-\* headers$/,
    );
    expect(causes[0]?.count).toBe(3);
  });

  it("a refilling limiter that answers as the API does: a limiter of another shape, with its numbers", () => {
    const row = violation("rate-limit", "rate-limit/refills-early", answer(200, API));
    row.received = { served: 64, seconds: 33, limit: 60, windowSeconds: 60, servedAgain: 3 };
    const causes = findCauses(spec, [row], census(answer(200, API)));
    expect(causes.map((c) => [c.id, c.title])).toEqual([
      [
        "limiter-shape",
        "The rate limit is not the contract's sliding window: it lets 64 requests through within 33 s from one address (limit 60 per 60 s), refilling within seconds (a leaky or token bucket)",
      ],
    ]);
  });

  it("a personal stream served without its key: a cache, critical, whatever the rows' severities", () => {
    const leaked = answer(200, { ...API, "x-cache-status": "HIT" }, "getMyFollowHits");
    const rows = [
      violation("credentials-not-cached", "credentials-not-cached", leaked, "critical"),
      violation("rule:my-follow-credentials", "rule:my-follow-credentials", leaked, "medium"),
      violation("cache-control", "cache-control/from-cache", answer(200, { ...API, age: "7" })),
    ];
    const causes = findCauses(spec, rows, census(leaked));
    expect(causes.map((c) => [c.id, c.severity, c.count])).toEqual([["cache-answered", "critical", 3]]);
    expect(causes[0]?.title).toMatch(
      /^A shared cache in front answers from its storage: it served getMyFollowHits without the key/,
    );
  });

  it("an answer repeating an earlier one seconds later is a cache's too", () => {
    const replayed = {
      ...answer(200, API),
      replayed: "the Date (…), RateLimit-Remaining (5) and body of the answer to the same URL 3 s before",
    };
    const rows = [violation("rate-limit", "rate-limit/endpoint-not-limited", replayed)];
    expect(findCauses(spec, rows, census(replayed)).map((c) => c.id)).toEqual(["cache-answered"]);
  });

  it("causes come most severe first", () => {
    const page = answer(404, NGINX_PAGE);
    const leaked = answer(200, { ...API, age: "3" }, "getMyPushHits");
    const rows = [
      violation("status-code-documented", "status-code-documented", page, "high"),
      violation("credentials-not-cached", "credentials-not-cached", leaked, "critical"),
    ];
    expect(findCauses(spec, rows, census(answer(200, API), page, leaked)).map((c) => c.id)).toEqual([
      "cache-answered",
      "another-component-404",
    ]);
  });
});
