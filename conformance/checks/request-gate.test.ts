/**
 * request-gate on synthetic answers: each case's documented answer passes; each way a stack breaks
 * it (a proxy's HTML page, an empty 400, 400 where 431 is due, a connection kept open, no CORS, %2F
 * decoded into another resource) is a finding with its code, naming the component in front only
 * with the signs that show it; a case that could not be sent is not judged, never passed.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { AnswerCensus, findCauses } from "../runner/causes.ts";
import type { CheckContext, Exchange, PlanContext, Violation } from "../types.ts";
import { gateCases, requestGate } from "./request-gate.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };
const CORS = { "access-control-allow-origin": "*" };

const cases = gateCases(spec);
const caseNamed = (id: string) => {
  const c = cases.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return c;
};

function answer(id: string, over: Partial<Exchange> = {}): Exchange {
  const c = caseNamed(id);
  return {
    request: {
      method: "GET",
      pathname: c.pathname,
      query: [],
      headers: {},
      label: `request-gate ${id}`,
      wire: c.wire,
    },
    url: `http://t${c.pathname}`,
    status: 200,
    headers: { ...CORS, "content-type": "application/json" },
    mediaType: "application/json",
    text: '{"data":{}}',
    body: { data: {} },
    sentAt: 1,
    receivedAt: 2,
    ...over,
  };
}

/** The answer x-request-gate documents for a refusal or the encoded slash. */
function refused(id: string, problem: string, status: number, over: Partial<Exchange> = {}): Exchange {
  const body = { type: `/problems/${problem}`, status };
  return answer(id, {
    status,
    headers: { ...CORS, "content-type": "application/problem+json" },
    mediaType: "application/problem+json",
    text: JSON.stringify(body),
    body,
    closed: true,
    ...over,
  });
}

/** Every case answered as documented. */
const documented = (): Exchange[] => [
  answer("head-under-common-limit"),
  answer("head-over-common-limit"),
  answer("head-under-cap"),
  refused("head-over-cap", "headers-too-large", 431),
  refused("malformed-header", "malformed-request", 400),
  refused("missing-host", "malformed-request", 400),
  refused("malformed-request-line", "malformed-request", 400),
  refused("encoded-slash", "not-found", 404, { closed: false }),
];

/** The group with one case's answer replaced. */
const withAnswer = (e: Exchange) => documented().map((d) => (d.request.label === e.request.label ? e : d));

const judge = (exchanges: Exchange[]) =>
  requestGate.judgeGroup?.(ctx, {
    planned: { check: "request-gate", kind: "set", requests: [], label: "t" },
    exchanges,
  });

const HTML = { "content-type": "text/html", server: "Apache" };
const html = (status: number) => ({
  status,
  headers: HTML,
  mediaType: "text/html",
  text: "<html><body>Bad Request</body></html>",
  body: "<html><body>Bad Request</body></html>",
});
const EMPTY_400 = { status: 400, headers: {}, mediaType: undefined, text: "", body: "" };

describe("request-gate: the cases come from x-request-gate", () => {
  it("sizes its heads around the common 8 KB default and the cap, by the slack", () => {
    const gate = spec.requestGate;
    const sizes = cases.flatMap((c) => (c.wire.headBytes ? [c.wire.headBytes] : []));
    expect(sizes).toEqual([
      gate.served_beyond_bytes - gate.slack_bytes,
      gate.served_beyond_bytes + gate.slack_bytes,
      gate.head_max_bytes - gate.slack_bytes,
      gate.head_max_bytes + gate.slack_bytes,
    ]);
  });

  it("plans one set of raw requests, each case once, none of them a compare", () => {
    const groups = requestGate.plan?.({ ...ctx } as PlanContext) ?? [];
    expect(groups).toHaveLength(1);
    expect(groups[0]?.kind).toBe("set");
    expect(groups[0]?.requests.map((r) => r.label)).toEqual(cases.map((c) => `request-gate ${c.id}`));
    expect(groups[0]?.requests.every((r) => r.wire !== undefined)).toBe(true);
  });
});

describe("request-gate: judging", () => {
  it("passes every case answered as documented", () => {
    const verdict = judge(documented());
    expect(verdict?.findings).toEqual([]);
    expect(verdict?.informative).toBe(true);
  });

  it.each([
    [
      "Varnish's empty 400 past 8 KB",
      answer("head-over-common-limit", EMPTY_400),
      "head-over-common-limit",
      ["an empty body"],
    ],
    [
      "httpd's 400 page for a long header",
      answer("head-under-cap", html(400)),
      "head-under-cap",
      ["an HTML page", "Server: Apache (the API's own answers: none)"],
    ],
    [
      "HAProxy's 400 page where 431 is due",
      refused("head-over-cap", "x", 400, html(400)),
      "head-over-cap",
      ["an HTML page", "Server: Apache (the API's own answers: none)"],
    ],
    [
      "a 400 problem where 431 is due, from the API",
      refused("head-over-cap", "malformed-request", 400),
      "head-over-cap",
      undefined,
    ],
    [
      "the connection kept open after a refusal",
      refused("missing-host", "malformed-request", 400, { closed: false }),
      "missing-host",
      undefined,
    ],
    [
      "a refusal without CORS",
      refused("malformed-header", "malformed-request", 400, {
        headers: { "content-type": "application/problem+json" },
      }),
      "malformed-header",
      undefined,
    ],
    [
      "a plain-text refusal",
      refused("malformed-request-line", "x", 400, {
        mediaType: "text/plain",
        text: "Bad Request",
        body: "Bad Request",
      }),
      "malformed-request-line",
      ["a text/plain body"],
    ],
    [
      "httpd's 404 page for %2F",
      answer("encoded-slash", html(404)),
      "encoded-slash",
      ["an HTML page", "Server: Apache (the API's own answers: none)"],
    ],
    ["%2F decoded into the manifest", answer("encoded-slash"), "encoded-slash", undefined],
  ] as const)("%s", (_name, e, code, signs) => {
    const verdict = judge(withAnswer(e));
    expect(verdict?.findings.map((f) => f.finding.code)).toEqual([`request-gate/${code}`]);
    const got = verdict?.findings[0]?.finding.received as { answeredInFront?: string[] };
    expect(got.answeredInFront).toEqual(signs);
  });

  it.each([
    [
      "refused connection",
      { status: 0, failure: { kind: "unreachable" as const, message: "not connected: ECONNREFUSED" } },
    ],
    ["the rate limit", { status: 429 }],
    // A reset or a timeout is answers-complete's finding: one defect, one check.
    ["a reset after it was sent", { status: 0, failure: { kind: "reset" as const, message: "closed" } }],
  ])("does not judge a case that met %s, and says so", (_name, over) => {
    const verdict = judge(withAnswer(answer("missing-host", over)));
    expect(verdict?.findings).toEqual([]);
    expect(verdict?.partial).toMatch(/missing-host/);
  });

  it("a group none of whose cases could be sent is no evidence, never a pass", () => {
    const unreachable = documented().map((e) => ({
      ...e,
      status: 0,
      failure: { kind: "unreachable" as const, message: "TLS" },
    }));
    const verdict = judge(unreachable);
    expect(verdict?.informative).toBe(false);
    expect(verdict?.inconclusive).toMatch(/no case could be judged/);
  });
});

describe("request-gate: the cause in front", () => {
  const violation = (e: Exchange): Violation => {
    const [f] = judge(withAnswer(e))?.findings ?? [];
    if (!f) throw new Error("no finding");
    return {
      ...f.finding,
      check: "request-gate",
      severity: "high",
      operation: e.request.pathname,
      request: "",
      seed: 0,
      replay: "",
    };
  };

  it("names another component with the answers that show it", () => {
    const v = violation(answer("head-over-common-limit", EMPTY_400));
    const causes = findCauses(spec, [v], new AnswerCensus());
    expect(causes.map((c) => c.id)).toEqual(["another-component-gate"]);
    expect(causes[0]?.evidence).toEqual(["head-over-common-limit: 400 no content type, an empty body"]);
  });

  it("names none when the answer looks like the API's own (a wrong problem type is the API's fault)", () => {
    const v = violation(refused("head-over-cap", "malformed-request", 400));
    expect(findCauses(spec, [v], new AnswerCensus())).toEqual([]);
  });
});
