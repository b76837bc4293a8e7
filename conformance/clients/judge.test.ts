import { beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { ClientJudge } from "./judge.ts";
import { consoleLines } from "./report-text.ts";
import { CLIENT_RULE_IDS, type ClientRuleId, readClientRules } from "./rules.ts";
import type { ClientObservation } from "./types.ts";

const KEY = "0badc0ffee0ddba11fee7e57ab1e7e57";
const T0 = 1_795_644_000;

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});

/** An exchange at `at` seconds after T0, answered 10 ms later. */
function ex(
  at: number,
  target: string,
  status = 200,
  more: Partial<ClientObservation> = {},
): ClientObservation {
  return {
    time: T0 + at,
    answeredAt: T0 + at + 0.01,
    client: "127.0.0.9",
    method: "GET",
    target,
    requestHeaders: {},
    status,
    responseHeaders: {},
    variations: [],
    ...more,
  };
}

const limited = (at: number, retryAfter: number, target = "/api/v1/feed") =>
  ex(at, target, 429, {
    responseHeaders: { "retry-after": String(retryAfter) },
    problemType: "/problems/rate-limited",
  });
const refused = (at: number, target: string) =>
  ex(at, target, 400, { problemType: "/problems/invalid-parameter" });
const keyed = (at: number, target: string, status = 200) =>
  ex(at, target, status, { requestHeaders: { "x-api-key": KEY } });
const varied = (at: number, target: string) => ex(at, target, 200, { variations: ["field-added"] });

function judged(traffic: ClientObservation[], accounts?: { uid: string; key: string }[]) {
  const judge = new ClientJudge(spec, accounts ? { accounts } : {});
  for (const o of traffic) judge.observe(o);
  return judge.report();
}
const rulesOf = (traffic: ClientObservation[], accounts?: { uid: string; key: string }[]) =>
  judged(traffic, accounts).clients.flatMap((c) => c.findings.map((f) => f.rule));

const cases: [
  string,
  { given: ClientObservation[]; accounts?: { uid: string; key: string }[]; want: ClientRuleId[] },
][] = [
  ["a client that waits Retry-After", { given: [limited(0, 12), ex(12.02, "/api/v1/feed")], want: [] }],
  [
    "a retry 0.4 s after a 429 that asked 12 s",
    { given: [limited(0, 12), ex(0.41, "/api/v1/feed")], want: ["client-waits-retry-after"] },
  ],
  [
    "an uncounted OPTIONS in the wait",
    {
      given: [limited(0, 2), ex(0.5, "/api/v1/feed", 204, { method: "OPTIONS" }), ex(2.1, "/api/v1/feed")],
      want: [],
    },
  ],
  [
    "a client that ignores 429s: one storm, its early requests under it",
    {
      given: Array.from({ length: 10 }, (_, i) => limited(i, 30, `/api/v1/rank?act=jintian&limit=${i + 1}`)),
      want: ["client-paces-below-limit"],
    },
  ],
  [
    "a refused request sent once",
    { given: [refused(0, "/api/v1/rank?limit=0")], want: ["client-request-refused"] },
  ],
  [
    "a refused request repeated: reported once, as the repeat",
    {
      given: [refused(0, "/api/v1/search"), refused(5, "/api/v1/search"), refused(10, "/api/v1/search")],
      want: ["client-repeats-refused-request"],
    },
  ],
  [
    "a refused request fixed, then sent",
    { given: [refused(0, "/api/v1/search"), ex(5, "/api/v1/search?q=a")], want: ["client-request-refused"] },
  ],
  [
    "the key in the query string",
    { given: [ex(0, `/api/v1/feed?api_key=${KEY}`)], want: ["client-key-in-header"] },
  ],
  [
    "a key seen in the header, then in a query value of another name",
    {
      given: [keyed(0, "/api/v1/my/follow?uid=10001"), ex(5, `/api/v1/my/push?uid=10001&k=${KEY}`, 401)],
      want: ["client-key-in-header"],
    },
  ],
  [
    "the key sent to a public endpoint",
    { given: [keyed(0, "/api/v1/feed")], want: ["client-no-key-to-public"] },
  ],
  [
    "one key with several uids",
    {
      given: [keyed(0, "/api/v1/my/follow?uid=10001"), keyed(2, "/api/v1/my/follow?uid=10002")],
      want: ["client-one-account-per-key"],
    },
  ],
  [
    "a uid the key does not belong to (the mock knows the account): the 401 shown by it",
    {
      given: [keyed(0, "/api/v1/my/follow?uid=10002", 401)],
      accounts: [{ uid: "10001", key: KEY }],
      want: ["client-one-account-per-key"],
    },
  ],
  [
    "the key's own uid",
    { given: [keyed(0, "/api/v1/my/follow?uid=10001")], accounts: [{ uid: "10001", key: KEY }], want: [] },
  ],
  [
    "a varied answer asked again at once",
    { given: [varied(0, "/api/v1/feed"), ex(0.2, "/api/v1/feed")], want: ["client-ignores-unknown-fields"] },
  ],
  [
    "a varied answer, then the client goes on",
    { given: [varied(0, "/api/v1/feed"), ex(0.2, "/api/v1/rank?act=jintian")], want: [] },
  ],
  [
    "a varied answer, then the same poll a minute later",
    { given: [varied(0, "/api/v1/feed"), ex(60, "/api/v1/feed")], want: [] },
  ],
];

describe("the client judge", () => {
  it.each(cases)("%s", (_, { given, accounts, want }) => {
    expect(rulesOf(given, accounts).sort()).toEqual([...want].sort());
  });

  it("says how long the client waited and how long it was asked to", () => {
    const [f] = judged([limited(0, 12), ex(0.41, "/api/v1/feed")]).clients[0]?.findings ?? [];
    expect(f?.message).toContain(
      "retried 0.4 s after a 429 to GET /api/v1/feed that asked Retry-After: 12 (wait kept 0.4 s of 12 s)",
    );
    expect(f?.evidence[0]).toMatchObject({
      method: "GET",
      target: "/api/v1/feed",
      at: new Date((T0 + 0.41) * 1000).toISOString(),
    });
  });

  it("names the refusal's problem and the repeat count", () => {
    const report = judged([
      refused(0, "/api/v1/search"),
      refused(5, "/api/v1/search"),
      refused(10, "/api/v1/search"),
    ]);
    expect(report.clients[0]?.findings[0]?.message).toContain(
      "3 times unchanged (GET /api/v1/search → 400 /problems/invalid-parameter)",
    );
  });

  it("never shows the key: masked in messages and evidence", () => {
    const report = judged([ex(0, `/api/v1/feed?api_key=${KEY}`), keyed(1, "/api/v1/feed")]);
    const shown = JSON.stringify(report);
    expect(shown).not.toContain(KEY);
    expect(shown).toContain("api_key=0bad…(32 characters)");
  });

  it("folds the early retries of a storm under it, with their count", () => {
    const storm = Array.from({ length: 10 }, (_, i) => limited(i, 30));
    const [f] = judged(storm).clients[0]?.findings ?? [];
    expect(f?.includes).toEqual([
      "9 requests sent before the Retry-After they were given (client-waits-retry-after)",
    ]);
  });

  it("shows what a client did after each varied answer: went on, repeated at once, stopped", () => {
    const [c] = judged([
      varied(0, "/api/v1/feed"),
      varied(2, "/api/v1/rank?act=jintian"),
      ex(2.1, "/api/v1/rank?act=jintian"),
      varied(9, "/api/v1/feed"),
    ]).clients;
    expect(c?.variations.map((v) => v.next)).toEqual(["went-on", "repeated-at-once", "stopped"]);
    expect(c?.variations[0]?.delaySeconds).toBeCloseTo(1.99, 5);
  });

  it("groups by source address, with the User-Agent as a label; verdicts per client and overall", () => {
    const report = judged([
      ex(0, "/api/v1/feed", 200, { client: "127.0.0.2", userAgent: "good/1.0" }),
      refused(1, "/api/v1/rank?limit=0"),
    ]);
    expect(report.clients.map((c) => [c.client, c.userAgents, c.verdict])).toEqual([
      ["127.0.0.2", ["good/1.0"], "passed"],
      ["127.0.0.9", [], "failed"],
    ]);
    expect(report.verdict).toBe("failed");
    expect(report.headline).toBe("failed: 1 client of 2 with findings");
  });

  it("is incomplete when no client was observed, and passed for clean traffic", () => {
    expect(judged([]).verdict).toBe("incomplete");
    expect(judged([ex(0, "/api/v1/meta")]).verdict).toBe("passed");
  });

  it("says it cannot judge accounts when a recording hid the keys", () => {
    const hidden = ex(0, "/api/v1/my/follow?uid=10001", 200, {
      requestHeaders: { "x-api-key": "<redacted>" },
    });
    expect(judged([hidden]).clients[0]?.notJudged.map((n) => n.rule)).toEqual(["client-one-account-per-key"]);
  });

  it("follows a bounded number of clients and counts the rest", () => {
    const judge = new ClientJudge(spec, { maxClients: 1 });
    judge.observe(ex(0, "/api/v1/meta", 200, { client: "a" }));
    judge.observe(ex(0, "/api/v1/meta", 200, { client: "b" }));
    expect(judge.report()).toMatchObject({ untracked: 1, observed: 2 });
  });

  it("prints findings with their first request, and counts clean clients past twenty", () => {
    const clean = Array.from({ length: 25 }, (_, i) => ex(i, "/api/v1/meta", 200, { client: `10.0.0.${i}` }));
    const lines = consoleLines(judged([...clean, varied(30, "/api/v1/feed"), ex(30.2, "/api/v1/feed")]));
    expect(lines[0]).toBe("clients: failed: 1 client of 26 with findings");
    expect(lines).toContain("  127.0.0.9: failed, 2 requests, 1 varied answers (repeated-at-once 1)");
    expect(lines.at(-1)).toBe("  and 5 more clients passed");
  });

  it("judges every rule x-client-rules states, its numbers read from the extensions that state them", () => {
    const rules = readClientRules(spec);
    expect(rules.rules.map((r) => r.id).sort()).toEqual([...CLIENT_RULE_IDS].sort());
    expect(rules).toMatchObject({
      refusalStatus: spec.rateLimit.status,
      preflightCounted: spec.rateLimit.counts_preflight,
      windowSeconds: spec.rateLimit.window_seconds,
      pacedSpacingSeconds: spec.rateLimit.window_seconds / spec.rateLimit.limit,
      keyHeader: "x-api-key",
    });
  });
});
