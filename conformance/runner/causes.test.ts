/**
 * Root causes from evidence only: a status another component answers (against the API's own
 * answers), a limiter in front, a limiter of another shape, a cache answering, the API ignoring a
 * key, a manifest stating another limit; what follows from a cause under it; the rest unexplained.
 * Each cause carries the evidence that shows it, and is marked likely when that is partial.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Exchange, Violation } from "../types.ts";
import { AnswerCensus, answerFacts, type Cause, findCauses } from "./causes.ts";

const spec = await loadSpec();
const API = { "access-control-allow-origin": "*", "ratelimit-limit": "60", "ratelimit-remaining": "5" };
const NGINX_PAGE = { "content-type": "text/html", server: "nginx" };

function answer(
  status: number,
  headers: Record<string, string>,
  operationId = "getRank",
  body: unknown = "",
): Exchange {
  const media = headers["content-type"]?.split(";")[0];
  return {
    request: { method: "GET", pathname: "/x", query: [], headers: {}, label: "t" },
    url: "http://t/x",
    operation: spec.operation(operationId),
    status,
    headers,
    ...(media ? { mediaType: media } : {}),
    text: "",
    body,
    sentAt: 1,
    receivedAt: 2,
  };
}

function violation(
  check: string,
  code: string,
  e: Exchange,
  severity: Violation["severity"] = "high",
  received: unknown = null,
  title = `${check} ${code}`,
): Violation {
  return {
    check,
    code,
    title,
    received,
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

/** A credentials-not-cached finding as the check words it (checks/credentials-not-cached.ts whoAnswered). */
const leak = (
  e: Exchange,
  answeredBy: string,
  evidence: string[],
  variant = "the same URL with a wrong key",
) =>
  violation("credentials-not-cached", "credentials-not-cached", e, "critical", {
    status: e.status,
    answeredBy,
    variant,
    evidence,
  });

const shapeRow = (e: Exchange, served: number) => {
  const row = violation(
    "rate-limit",
    "rate-limit/not-enforced",
    e,
    "high",
    { served, seconds: 20, limit: 60, windowSeconds: 60 },
    `${served} served within 20 s from one client address (limit 60 per 60 s): ${served - 60} served over the limit`,
  );
  return row;
};

const manifest = (limit: number) =>
  answer(200, API, "getMeta", { data: { rate_limit: { limit, window_seconds: 60, scope: "client-ip" } } });

interface Case {
  rows: Violation[];
  answers: Exchange[];
  /** [id, severity, count, likely] of each stated cause, in order; followers as [id, count] under `follows`. */
  want: [string, string, number, boolean][];
  follows?: Record<string, [string, number][]>;
  title?: RegExp;
  evidence?: RegExp;
}

const freshLeak = answer(200, { ...API, date: "D2", "ratelimit-remaining": "4" }, "getMyFollowHits");
const replayed = answer(200, { ...API, date: "D1" }, "getMyFollowHits");
const page403 = answer(403, NGINX_PAGE);
const page414 = answer(414, NGINX_PAGE, "getMeta");
const cached429 = answer(
  429,
  { ...API, "ratelimit-remaining": "0", "retry-after": "30", "x-cache-status": "HIT" },
  "getMeta",
);

const CASES: [string, Case][] = [
  [
    "a status every answer of which is an HTML page without CORS: another component, explaining every row of it",
    {
      rows: [
        violation("status-code-documented", "status-code-documented", page414),
        violation("cors", "cors/allow-origin", page414, "medium"),
        violation("rule:rank-order", "rule:rank-order", answer(200, API)),
      ],
      answers: [answer(200, API), page414, answer(400, API)],
      want: [["another-component-414", "high", 2, false]],
      title:
        /^Another component in front answers 414 itself, not the API: text\/html, no CORS, no RateLimit-\*, Server: nginx$/,
    },
  ],
  [
    "the API's own 400 is no other component's",
    {
      rows: [violation("invalid-inputs-rejected", "invalid-inputs-rejected/names", answer(400, API))],
      answers: [answer(200, API), answer(400, API)],
      want: [],
    },
  ],
  [
    "an API answering 200 to a wrong key, fresh (its own Date and Remaining, another body, no cache header): the API ignores the key, not a cache",
    {
      rows: [
        leak(freshLeak, "application", [
          "a body other than the owner's",
          "its own Date (D2; the owner's D1)",
          "its own RateLimit-Remaining (4; the owner's 5): the API counted it",
          "no Age, X-Cache or Cache-Status",
        ]),
        violation("rule:my-follow-credentials", "rule:my-follow-credentials", freshLeak, "medium"),
      ],
      answers: [freshLeak],
      want: [["credentials-ignored", "critical", 2, false]],
      title: /^The API itself serves getMyFollowHits without checking the key/,
      evidence:
        /getMyFollowHits, the same URL with a wrong key: a body other than the owner's; its own Date \(D2; the owner's D1\)/,
    },
  ],
  [
    "the owner's answer replayed (its Date, Remaining and body): a cache keyed on the URL, critical whatever the rows' severities",
    {
      rows: [
        leak(replayed, "cache", [
          "the owner's Date (D1)",
          "the owner's RateLimit-Remaining (5)",
          "the owner's body, byte for byte",
        ]),
        violation("rule:my-follow-credentials", "rule:my-follow-credentials", replayed, "medium"),
        violation("cache-control", "cache-control/from-cache", answer(200, { ...API, age: "7" })),
      ],
      answers: [replayed],
      want: [["cache-answered", "critical", 3, false]],
      title: /^A shared cache in front answers from its storage: it served getMyFollowHits without the key/,
      evidence: /the owner's Date \(D1\); the owner's RateLimit-Remaining \(5\)/,
    },
  ],
  [
    "a leak the answers cannot attribute: a likely cause, saying what would confirm it",
    {
      rows: [
        leak(freshLeak, "unknown", ["the owner's body, byte for byte", "no Age, X-Cache or Cache-Status"]),
      ],
      answers: [freshLeak],
      want: [["credentials-unguarded", "critical", 1, true]],
      title: /^Likely a shared cache keyed on the URL, or the API not checking the key/,
    },
  ],
  [
    "an answer repeating an earlier one seconds later is a cache's too",
    {
      rows: [
        violation("rate-limit", "rate-limit/endpoint-not-limited", {
          ...answer(200, API),
          replayed: "the Date (…), RateLimit-Remaining (5) and body of the answer to the same URL 3 s before",
        }),
      ],
      answers: [answer(200, API)],
      want: [["cache-answered", "high", 1, false]],
    },
  ],
  [
    "a cache replaying 429s: clients counted together and the limiter's shape follow from it, not beside it",
    {
      rows: [
        violation("cache-control", "cache-control/from-cache", cached429),
        violation(
          "rate-limit",
          "rate-limit/per-ip",
          cached429,
          "high",
          null,
          "another client IP (127.0.0.9) was refused too",
        ),
        shapeRow(answer(200, API), 80),
      ],
      answers: [answer(200, API), cached429],
      want: [["cache-answered", "high", 3, false]],
      follows: {
        "cache-answered": [
          ["counted-together", 1],
          ["limiter-shape", 1],
        ],
      },
      title:
        /^A shared cache in front answers from its storage, replaying other clients' answers with stored 429 refusals \(1 seen\) and their RateLimit-\* headers$/,
    },
  ],
  [
    "foreign 429s and no RateLimit-* anywhere: a limiter in front, explaining the rate-limit rows too",
    {
      rows: [
        violation("content-type", "content-type", answer(429, NGINX_PAGE)),
        violation(
          "response-headers",
          "response-headers/ratelimit-limit",
          answer(200, { "access-control-allow-origin": "*" }),
          "medium",
        ),
        violation("rate-limit", "rate-limit/refused-early", answer(429, NGINX_PAGE)),
      ],
      answers: [answer(200, { "access-control-allow-origin": "*" }), answer(429, NGINX_PAGE)],
      want: [["limiter-in-front", "high", 3, false]],
      title:
        /its 429s are text\/html, no CORS, no RateLimit-\*, no Retry-After, Server: nginx; no answer carries RateLimit-\* headers$/,
    },
  ],
  [
    "a limiter in front counting preflights: named under it, from the numbers of the refusal",
    {
      rows: [
        violation("content-type", "content-type", answer(429, NGINX_PAGE)),
        violation(
          "rate-limit",
          "rate-limit/counts-preflight",
          answer(429, NGINX_PAGE),
          "high",
          "49 served",
          "request 50 of 60 within the window was refused: the 14 preflights (OPTIONS) sent before it in the window are counted (50 + 14 >= 60), likely (no RateLimit-Remaining shows which requests were counted)",
        ),
      ],
      answers: [answer(200, { "access-control-allow-origin": "*" }), answer(429, NGINX_PAGE)],
      want: [["limiter-in-front", "high", 2, false]],
      follows: { "limiter-in-front": [["limiter-counts-preflight", 1]] },
    },
  ],
  [
    "an early refusal that counted preflights fit, among other explanations: the preflights named under the limiter, as likely",
    {
      rows: [
        violation("content-type", "content-type", answer(429, NGINX_PAGE)),
        violation(
          "rate-limit",
          "rate-limit/refused-early",
          answer(429, NGINX_PAGE),
          "high",
          429,
          "request 53 of 60 within the window was refused: either the 9 preflights (OPTIONS) sent before it in the window are counted (53 + 9 >= 60), or each searchAlerts request takes two units (no RateLimit-Remaining shows which requests were counted)",
        ),
      ],
      answers: [answer(200, { "access-control-allow-origin": "*" }), answer(429, NGINX_PAGE)],
      want: [["limiter-in-front", "high", 2, false]],
      follows: { "limiter-in-front": [["limiter-counts-preflight", 1]] },
    },
  ],
  [
    "a limiter in front refusing with its own 403 pages: one cause for the pages and the burst, the 403s not counted as served",
    {
      rows: [
        ...Array.from({ length: 5 }, () => violation("cors", "cors/allow-origin", page403, "medium")),
        violation(
          "rate-limit",
          "rate-limit/refused-not-429",
          page403,
          "high",
          { status: 403, mediaType: "text/html" },
          "over the limit the client was refused with 403 text/html pages, not 429",
        ),
      ],
      answers: [answer(200, API), page403],
      want: [["limiter-in-front", "high", 6, false]],
      title:
        /it refuses with its own 403 pages \(text\/html, no CORS, no RateLimit-\*, Server: nginx\), not 429$/,
    },
  ],
  [
    "a shape measured with no RateLimit-* and no page of another component: a limiter in front is only likely",
    {
      rows: [shapeRow(answer(200, { "access-control-allow-origin": "*" }), 90)],
      answers: [answer(200, { "access-control-allow-origin": "*" })],
      want: [["limiter-in-front", "high", 1, true]],
      follows: { "limiter-in-front": [["limiter-shape", 1]] },
      title: /^Likely a limiter in front/,
    },
  ],
  [
    "the API's own limiter of another shape: the shape is the cause, with its numbers",
    {
      rows: [shapeRow(answer(200, API), 64)],
      answers: [answer(200, API)],
      want: [["limiter-shape", "high", 1, false]],
      title:
        /^The rate limit is not the contract's sliding window: it lets 64 requests through within 20 s from one address \(limit 60 per 60 s\)$/,
    },
  ],
  [
    "a manifest stating 120: that is the cause, with the manifest's value, and no 'not the contract's sliding window'",
    {
      rows: [
        shapeRow(answer(200, API), 90),
        violation("rule:meta-mirrors-spec", "rule:meta-mirrors-spec", manifest(120), "medium", {
          at: "/data/rate_limit/limit",
          value: 120,
        }),
      ],
      answers: [manifest(120)],
      want: [["manifest-rate-limit", "high", 2, false]],
      title:
        /^The deployment runs another rate limit than the contract's: the manifest says 120 per 60 s; the contract says 60 per 60 s$/,
      evidence: /GET \/api\/v1\/meta states rate_limit 120 per 60 s/,
    },
  ],
  [
    "causes come by the findings they explain first, severity second",
    {
      rows: [
        violation("status-code-documented", "status-code-documented", answer(404, NGINX_PAGE), "high"),
        violation("cors", "cors/allow-origin", answer(404, NGINX_PAGE), "medium"),
        leak(replayed, "cache", ["x-cache-status: HIT"]),
      ],
      answers: [answer(200, API), answer(404, NGINX_PAGE), replayed],
      want: [
        ["another-component-404", "high", 2, false],
        ["cache-answered", "critical", 1, false],
      ],
    },
  ],
];

/** The rows as the run hands them over: no cause marked yet (findCauses marks them). */
const fresh = (rows: Violation[]) => rows.map((v) => ({ ...v }));

const brief = (c: Cause): [string, string, number, boolean] => [c.id, c.severity, c.count, c.likely === true];

describe("findCauses", () => {
  it.each(CASES)("%s", (_what, { rows, answers, want, follows, title, evidence }) => {
    const causes = findCauses(spec, fresh(rows), census(...answers));
    expect(causes.map(brief)).toEqual(want);
    for (const c of causes) {
      expect(Object.fromEntries([[c.id, (c.follows ?? []).map((f) => [f.id, f.count])]])).toEqual({
        [c.id]: follows?.[c.id] ?? [],
      });
    }
    if (title) expect(causes[0]?.title).toMatch(title);
    if (evidence) expect(causes[0]?.evidence.join("\n")).toMatch(evidence);
  });

  it.each(CASES)(
    "%s: every cause stated shows its evidence, and a likely one says what would confirm it",
    (_what, c) => {
      const causes = findCauses(spec, fresh(c.rows), census(...c.answers));
      for (const cause of causes.flatMap((x) => [x, ...(x.follows ?? [])])) {
        expect(cause.evidence.length, cause.id).toBeGreaterThan(0);
        if (cause.likely) {
          expect(cause.title).toMatch(/\blikely\b/i);
          expect(cause.confirm).toBeTruthy();
        }
      }
    },
  );

  it("marks each row with its top-level cause, followers' rows included", () => {
    const rows = fresh(CASES.find(([what]) => what.startsWith("a cache replaying 429s"))?.[1].rows ?? []);
    findCauses(spec, rows, census(answer(200, API), cached429));
    expect(rows.map((v) => v.cause)).toEqual(["cache-answered", "cache-answered", "cache-answered"]);
  });
});
