/**
 * Reports for the HTML reporter's tests: a failing run of many requests, and one whose every text
 * field is hostile (what a target's body, headers and URLs can hold).
 */
import type { CheckResult, RunReport, TimelinePoint } from "../runner/report.ts";
import type { Violation } from "../types.ts";

export const HOSTILE = [
  "<script>alert(1)</script>",
  "</style><b>bold</b>",
  '"><img src=x onerror=alert(2)>',
  "'><svg onload=alert(3)>",
  "lone \uD800 high and \uDC00 low surrogates",
].join(" | ");

/** One line of a million characters: what a target's 1 MB body without a newline looks like. */
export const MEGABYTE_LINE = `${"A".repeat(1_000_000)}<script>tail()</script>`;

function violation(check: string, operation: string, i: number, over: Partial<Violation> = {}): Violation {
  return {
    check,
    code: `${check}/wrong`,
    title: `answer ${i} of ${operation} does not match its schema`,
    received: { status: 200, body: { items: [{ id: i, price: "12.00" }] } },
    documented: { type: "object", required: ["items"] },
    severity: "high",
    operation,
    request: `curl -sS 'http://127.0.0.1:8080/v1/${operation}?limit=${i}'`,
    seed: 42,
    replay: `dealkit conformance --seed 42 --only ${check}`,
    answer: {
      status: 200,
      mediaType: "application/json",
      cors: true,
      rateLimit: true,
      retryAfter: false,
      cache: [],
    },
    ...over,
  };
}

function check(
  name: string,
  status: CheckResult["status"],
  violations: Violation[] = [],
  operation?: string,
): CheckResult {
  return {
    name,
    title: `${name} holds`,
    verifies: "the spec",
    source: "openapi.yaml",
    severity: "high",
    ...(operation ? { operation } : {}),
    status,
    cases: 20,
    informative: status === "pass" || status === "fail" ? 12 : 0,
    planned: 4,
    sent: 4,
    violations,
    ...(status === "not-exercised" ? { reason: "no account: give --uid and --api-key" } : {}),
  };
}

/** A 200-request one-address run with a burst, a wait, and failures on three kinds of checks. */
export function failingRun(requests = 200): RunReport {
  const phases: TimelinePoint["phase"][] = ["discovery", "burst", "over-limit", "wait", "plan", "explore"];
  const timeline: TimelinePoint[] = Array.from({ length: requests }, (_, i) => {
    const phase = phases[Math.min(phases.length - 1, Math.floor((i / requests) * phases.length))];
    return {
      at: i * 800,
      ms: 12,
      status: phase === "over-limit" ? 429 : i % 17 === 0 ? 404 : i % 41 === 0 ? 0 : 200,
      ...(phase ? { phase } : {}),
      operation: i % 2 ? "listAlerts" : "searchAlerts",
      ...(i % 41 === 0 && i % 17 !== 0 ? { failure: "timeout" } : {}),
      purpose: phase === "plan" ? `plan: rule:price-format, boundary of limit` : (phase ?? "other"),
      request: `GET /v1/${i % 2 ? "listAlerts" : "searchAlerts"}?limit=${i}`,
    };
  });
  // Each finding came from an exchange of the timeline (the run links them: Violation.exchange).
  const schema = Array.from({ length: 30 }, (_, i) =>
    violation("response-schema", i % 2 ? "listAlerts" : "searchAlerts", i, {
      ...(i * 5 + 1 < requests ? { exchange: i * 5 + 1 } : {}),
    }),
  );
  const overLimit = timeline.findIndex((p) => p.status === 429);
  return {
    seed: 42,
    baseUrl: "http://127.0.0.1:8080",
    mode: "one-address",
    startedAt: "2026-11-26T17:00:00.000Z",
    durationMs: requests * 800 + 500,
    requests,
    rate: { limit: 60, windowSeconds: 60 },
    timeline,
    unexpected429: 0,
    checks: [
      check("response-schema", "fail", schema),
      check(
        "rule:price-format",
        "fail",
        [violation("rule:price-format", "listAlerts", 1, { rule: "price-format", cause: "cache-answered" })],
        "listAlerts",
      ),
      check("relation:search-subset", "pass", [], "searchAlerts"),
      check("rate-limit", "fail", [
        violation("rate-limit", "listAlerts", 2, {
          ...(overLimit >= 0 ? { exchange: overLimit } : {}),
          reproduce: `#!/bin/sh\nfor i in $(seq 60); do curl -s 'http://127.0.0.1:8080/v1/alerts' >/dev/null; done`,
        }),
      ]),
      check("account-streams", "not-exercised", [], "listMyAlerts"),
      check("cors", "skipped"),
    ],
    causes: [
      {
        id: "cache-answered",
        severity: "high",
        title: "A cache answered from its storage",
        evidence: ["Age: 30 on 4 answers"],
        checks: ["rule:price-format"],
        operations: ["listAlerts"],
        count: 1,
      },
    ],
    notes: ["one source address: requests paced at the advertised rate"],
    requireEvidence: false,
    verdict: "failed",
    passed: false,
  };
}

/** A failing run whose every string a target could have written is hostile. */
export function hostileRun(): RunReport {
  const run = failingRun(20);
  const hostile = violation("response-schema", HOSTILE, 1, {
    title: HOSTILE,
    received: MEGABYTE_LINE,
    documented: { [HOSTILE]: HOSTILE },
    request: `curl '${HOSTILE}'`,
    replay: HOSTILE,
    reproduce: HOSTILE,
    code: HOSTILE,
    answer: {
      status: 500,
      mediaType: HOSTILE,
      cors: false,
      rateLimit: false,
      retryAfter: false,
      server: HOSTILE,
      via: HOSTILE,
      cache: [HOSTILE],
      replayed: HOSTILE,
    },
  });
  return {
    ...run,
    baseUrl: `http://x/${HOSTILE}`,
    notes: [HOSTILE, MEGABYTE_LINE],
    checks: [
      { ...check("response-schema", "fail", [hostile], HOSTILE), title: HOSTILE, note: MEGABYTE_LINE },
    ],
    causes: [
      {
        ...run.causes[0],
        title: HOSTILE,
        evidence: [HOSTILE],
        checks: [HOSTILE],
        operations: [HOSTILE],
      } as RunReport["causes"][number],
    ],
    timeline: [
      { at: 0, ms: 5, status: 200, operation: HOSTILE, phase: "plan", purpose: HOSTILE, request: HOSTILE },
    ],
    expiredKnown: [HOSTILE],
  };
}
