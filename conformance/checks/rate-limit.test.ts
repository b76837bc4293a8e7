/**
 * Why a refusal came early, from the burst's answers: the countdown of RateLimit-Remaining when
 * the answers carry it, otherwise from when the refusal came (one explanation that fits is named
 * as likely; several are named together, none blamed alone).
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { Judge } from "../runner/judge.ts";
import { checkResults, verdictOf } from "../runner/report.ts";
import type { BurstRecord, CheckContext, Exchange, Verdict } from "../types.ts";
import { rateLimit } from "./rate-limit.ts";

const spec = await loadSpec();
const LIMIT = 10;
let clock = 0;

function exchange(
  operationId: string,
  status: number,
  remaining?: number,
  method: "GET" | "OPTIONS" = "GET",
): Exchange {
  clock += 1;
  return {
    request: { method, pathname: "/x", query: [], headers: {}, label: "t" },
    url: "http://t/x",
    operation: spec.operation(operationId),
    status,
    headers: remaining === undefined ? {} : { "ratelimit-remaining": String(remaining) },
    text: "",
    body: "",
    sentAt: clock,
    receivedAt: clock + 0.5,
  };
}

/** A window of `ops` requests (in sending order), served until `servedCount`, then refused. */
function burst(window: Exchange[]): BurstRecord {
  return {
    address: undefined,
    limit: LIMIT,
    windowSeconds: 60,
    window,
    opening: 1,
    overLimit: [exchange("getMeta", 429)],
    refill: [],
    otherEndpoints: [],
    knocks: [],
  };
}

const ctx = { spec, rate: { limit: LIMIT, windowSeconds: 60 } } as unknown as CheckContext;
const codes = (b: BurstRecord) =>
  rateLimit.judgeBurst?.(ctx, b).findings.map((f) => [f.finding.code, f.finding.title]) ?? [];

/** Served requests of the given operations, then a refused one of `refusedOp`, none carrying RateLimit-Remaining. */
/** Eight operations, none repeated: a burst of them leaves no operation costing more in question. */
const EIGHT_OPERATIONS = [
  "getMeta",
  "searchAlerts",
  "getRank",
  "getFeed",
  "listActivities",
  "getRss",
  "getMyFollowHits",
  "getLegacyRankFile",
];

function served(ops: string[], refusedOp: string, preflightsAfterFirst = 0): Exchange[] {
  const [first, ...rest] = ops;
  return [
    exchange(first as string, 200),
    ...Array.from({ length: preflightsAfterFirst }, () =>
      exchange("searchAlerts", 204, undefined, "OPTIONS"),
    ),
    ...rest.map((op) => exchange(op, 200)),
    exchange(refusedOp, 429),
  ];
}

describe("an early refusal without RateLimit-Remaining", () => {
  it("names the operation whose requests, counted twice, fill the limit", () => {
    // 7 served, 3 of them searches: 7 + 3 = 10 units.
    const ops = ["getMeta", "searchAlerts", "getRank", "searchAlerts", "getFeed", "searchAlerts", "getRank"];
    const found = codes(burst(served(ops, "getMeta")));
    expect(found.map(([c]) => c)).toEqual(["rate-limit/costs-more"]);
    expect(found[0]?.[1]).toMatch(/each searchAlerts request takes two units, likely/);
  });

  it("names counted preflights when they alone fit", () => {
    // 8 served GETs, each of another operation, after 2 preflights: 8 + 2 = 10.
    const found = codes(burst(served(EIGHT_OPERATIONS, "getFeed", 2)));
    expect(found.map(([c]) => c)).toEqual(["rate-limit/counts-preflight"]);
  });

  it("blames none alone when both fit", () => {
    // 8 served with 2 searches and 2 preflights: either explains 10.
    const ops = [
      "getMeta",
      "searchAlerts",
      "getRank",
      "getFeed",
      "listActivities",
      "getRss",
      "searchAlerts",
      "getLegacyRankFile",
    ];
    const found = codes(burst(served(ops, "getFeed", 2)));
    expect(found.map(([c]) => c)).toEqual(["rate-limit/refused-early"]);
    expect(found[0]?.[1]).toMatch(
      /either the 2 preflights \(OPTIONS\) sent before it in the window are counted \(9 \+ 2 >= 10\), or each searchAlerts request takes two units/,
    );
  });

  it("says only that it came early when nothing fits", () => {
    const found = codes(burst(served(["getMeta", "getRank", "getFeed"], "getMeta")));
    expect(found).toEqual([["rate-limit/refused-early", "request 4 of 10 within the window was refused"]]);
  });
});

describe("an early refusal with RateLimit-Remaining", () => {
  it("reads the countdown: every search lowered it by two", () => {
    const window = [
      exchange("getMeta", 200, 9),
      exchange("searchAlerts", 200, 7),
      exchange("getRank", 200, 6),
      exchange("searchAlerts", 200, 4),
      exchange("getFeed", 200, 3),
      exchange("searchAlerts", 200, 1),
      exchange("getRank", 200, 0),
      exchange("getMeta", 429, 0),
    ];
    const found = codes(burst(window));
    expect(found.map(([c]) => c)).toEqual(["rate-limit/costs-more"]);
    expect(found[0]?.[1]).toMatch(/RateLimit-Remaining fell by 2 at each of 3/);
  });
});

/**
 * A full window of 10 served GETs, 3 of them RSS; then `servedOver` more served over the limit
 * before a refusal; over the limit, the other endpoints answer as given.
 */
function servedOverLimit(servedOver: number, otherEndpoints: Exchange[] = []): BurstRecord {
  const ops = ["getMeta", "getRss", "getRank", "getRss", "getFeed", "getRss", "searchAlerts"];
  const b = burst([...ops, "getRank", "getFeed", "listActivities"].map((op) => exchange(op, 200)));
  b.overLimit = [
    ...Array.from({ length: servedOver }, () => exchange("getMeta", 200)),
    exchange("getMeta", 429),
  ];
  b.otherEndpoints = otherEndpoints;
  return b;
}

describe("served over the limit", () => {
  it("names the operation whose requests in the window match what was served over: it is not counted", () => {
    // Over the limit, every other operation refuses the client, but RSS still serves it.
    const b = servedOverLimit(3, [
      exchange("getRank", 429),
      exchange("getRss", 200),
      exchange("getFeed", 429),
    ]);
    const found = codes(b);
    expect(found.map(([c]) => c)).toEqual(["rate-limit/endpoint-not-limited"]);
    expect(found[0]?.[1]).toMatch(/as many as the 3 getRss requests of the window/);
  });

  it("blames no operation that the limit still refuses over the limit (a bucket refilling serves as many)", () => {
    const b = servedOverLimit(3, [exchange("getRss", 429), exchange("getRank", 429)]);
    expect(codes(b).map(([c]) => c)).toEqual(["rate-limit/not-enforced"]);
  });

  it("says the limit is not enforced when no operation accounts for the excess", () => {
    expect(codes(servedOverLimit(7)).map(([c]) => c)).toEqual(["rate-limit/not-enforced"]);
  });
});

describe("a limiter that refills within seconds", () => {
  it("is not said to exempt the endpoints it happened to serve over the limit", () => {
    const b = servedOverLimit(3, [exchange("getRss", 200), exchange("getRank", 429)]);
    b.refill = [exchange("getMeta", 200), exchange("getMeta", 200)];
    expect(codes(b).map(([c]) => c)).toEqual(["rate-limit/refills-early"]);
  });
});

/** A limiter's page in front of the API (mod_evasive's 403, nginx's limit_req_status 403). */
const page = (status: number): Exchange => ({
  ...exchange("getMeta", status),
  headers: { "content-type": "text/html", server: "nginx" },
  mediaType: "text/html",
});

describe("what the burst's refusals were, told truly", () => {
  it.each([
    [
      "a limiter in front (its own 429 page) that refilled while the window filled: the counted preflights named, N + K >= limit",
      () => page(429),
      "rate-limit/counts-preflight",
      /the 4 preflights \(OPTIONS\) sent before it in the window are counted \(10 \+ 4 >= 10\), likely/,
    ],
    [
      "the API's own 429 after more than the limit could hold with the preflights counted: nothing fits, nothing blamed",
      () => exchange("getFeed", 429),
      "rate-limit/refused-early",
      /^request 10 of 10 within the window was refused$/,
    ],
  ])("%s", (_what, refusal, code, title) => {
    // 9 served (a bucket let one more through), refused at request 10 after 4 preflights.
    const ops = [...EIGHT_OPERATIONS, "getRank"];
    // Made after the window's requests: sent after them.
    const window = [...served(ops, "getFeed", 4).slice(0, -1), refusal()];
    const found = codes(burst(window));
    expect(found.map(([c]) => c)).toEqual([code]);
    expect(found[0]?.[1]).toMatch(title);
  });

  it("refused with a limiter's own 403 pages: refused, not 429, and the pages are not counted as served", () => {
    const b = burst(Array.from({ length: LIMIT }, () => exchange("getMeta", 200)));
    b.overLimit = [page(403)];
    b.otherEndpoints = [page(403), page(403)];
    b.refill = [page(403), page(403)];
    const found = codes(b);
    expect(found.map(([c]) => c)).toEqual(["rate-limit/refused-not-429"]);
    expect(found[0]?.[1]).toBe(
      "over the limit the client was refused with 403 text/html pages, Server: nginx, not 429 with Retry-After: a limiter in front answers for the API",
    );
  });

  it("refused early by a limiter in front's 403 page: the API's countdown is not that limiter's, the timing names the preflights", () => {
    // The API's RateLimit-Remaining did not fall at the preflights (it does not count them); the
    // limiter in front refused request 9 after 2 preflights all the same: 9 + 2 >= 10.
    const window = [
      exchange("getMeta", 200, 9),
      exchange("searchAlerts", 204, 9, "OPTIONS"),
      exchange("searchAlerts", 204, 9, "OPTIONS"),
      ...[
        "getRank",
        "getFeed",
        "listActivities",
        "getRss",
        "getMyFollowHits",
        "getLegacyRankFile",
        "searchAlerts",
      ].map((op, i) => exchange(op, 200, 8 - i)),
      page(403),
    ];
    const b = burst(window);
    b.overLimit = [page(403)];
    const found = codes(b);
    expect(found.map(([c]) => c)).toEqual(["rate-limit/refused-not-429", "rate-limit/counts-preflight"]);
    expect(found[1]?.[1]).toMatch(
      /request 9 of 10 within the window was refused: the 2 preflights \(OPTIONS\) sent before it in the window are counted \(9 \+ 2 >= 10\), likely/,
    );
  });

  it.each([
    [
      "a 429 without Retry-After: it asked no wait",
      {},
      "still refused after waiting 60 s (the whole window: the 429 asked no wait, no Retry-After)",
    ],
    [
      "a 429 with Retry-After: the wait it asked",
      { "retry-after": "30" },
      "still refused after waiting the 60 s the server asked for (Retry-After: 30)",
    ],
  ])("still refused after the wait, %s", (_what, headers, title) => {
    const b = burst(Array.from({ length: LIMIT }, () => exchange("getMeta", 200)));
    b.overLimit = [{ ...exchange("getMeta", 429), headers }];
    b.waited = 60;
    b.after = exchange("getMeta", 429);
    const found = codes(b).filter(([c]) => c === "rate-limit/not-served-after-wait");
    expect(found.map(([, t]) => t)).toEqual([title]);
  });
});

describe("another client IP refused", () => {
  it.each([
    ["by the limiter: counted together", {}, /refused too: the target counts clients together$/],
    [
      "by a cache replaying a stored 429: said so, not 'counted together'",
      { "x-cache-status": "HIT" },
      /refused too: a cache gave it a refusal from its storage \(x-cache-status: HIT\), not a limiter counting it$/,
    ],
  ])("%s", (_what, headers, title) => {
    const b = burst(Array.from({ length: LIMIT }, () => exchange("getMeta", 200)));
    b.otherAddress = { ...exchange("getMeta", 429), headers, localAddress: "127.0.0.9" };
    const found = codes(b).filter(([c]) => c === "rate-limit/per-ip");
    expect(found[0]?.[1]).toMatch(title);
  });
});

describe("a burst judged in part: what was not exercised is named, never folded into the pass", () => {
  const judgedRecord = (skipped?: string) => {
    const b = burst(Array.from({ length: LIMIT }, () => exchange("getMeta", 200)));
    if (skipped) b.skipped = skipped;
    // Served a window after the first request: it had left.
    else b.after = { ...exchange("getMeta", 200), sentAt: clock + 60, receivedAt: clock + 60.5 };
    return b;
  };
  const SKIP_SLOW = "--skip-slow: the run did not wait Retry-After; run without it to judge the wait";

  it.each([
    [
      "--skip-slow: the wait is named as not judged, with the flag that left it out",
      {
        given: judgedRecord(SKIP_SLOW),
        want: /; not judged: .*the wait: served again after Retry-After, refused requests not counted.*\(--skip-slow: the run did not wait Retry-After/,
      },
    ],
    [
      "the wait seen: only per-IP counting (one address) is left",
      {
        given: judgedRecord(),
        want: /^judged: 10 served within \d+ s .*; not judged: per-IP counting not tested \(one source address: a second one is needed\)$/,
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const verdict = rateLimit.judgeBurst?.(ctx, given);
    expect(verdict?.findings).toEqual([]);
    expect(verdict?.partial).toMatch(want);
  });

  it("the report's line passes with the note naming the part not judged; the run passes, as for every check judged in part", () => {
    const judge = new Judge(ctx, [rateLimit], 1, "http://t", "");
    judge.verdict(rateLimit, rateLimit.judgeBurst?.(ctx, judgedRecord(SKIP_SLOW)) as Verdict);
    const [result] = checkResults([rateLimit], {
      judge,
      account: true,
      selected: new Set([rateLimit.name]),
      failing: new Map(),
    });
    expect(result).toMatchObject({ status: "pass", informative: 1 });
    expect(result?.note).toMatch(/not judged: .*the wait.*--skip-slow/);
    expect(verdictOf(result ? [result] : [], {})).toMatchObject({ verdict: "passed" });
  });
});

describe("the window's shape after the wait: a sliding window frees only what left it", () => {
  /** A full window: the opening request at 0 s, the rest 3 s later; refused at 4 s; 60 s later, after the wait. */
  function waited(after: Exchange[]): BurstRecord {
    const opening = { ...exchange("getMeta", 200, 9), sentAt: 0, receivedAt: 0.2 };
    const rest = Array.from({ length: LIMIT - 1 }, (_, i) => ({
      ...exchange("getMeta", 200, 8 - i),
      sentAt: 3,
      receivedAt: 3.2,
    }));
    const b = burst([opening, ...rest]);
    b.overLimit = [
      { ...exchange("getMeta", 429), sentAt: 4, receivedAt: 4.2, headers: { "retry-after": "56" } },
    ];
    b.waited = 56;
    b.after = after[0];
    b.afterProbes = after.slice(1);
    return b;
  }
  const at = (t: number, status: number, remaining?: number): Exchange => ({
    ...exchange("getMeta", status, remaining),
    sentAt: t,
    receivedAt: t + 0.2,
  });

  it.each<[string, { given: Exchange[]; want: string[] }]>([
    [
      "sliding: the opening's slot taken, the next refused",
      { given: [at(60.3, 200, 0), at(60.6, 429, 0)], want: [] },
    ],
    [
      "fixed: served at its boundary while the whole window is still held",
      { given: [at(45, 200, 9)], want: ["rate-limit/resets-whole"] },
    ],
    [
      "fixed, no RateLimit-Remaining: the request one past what the window freed is served",
      { given: [at(60.3, 200), at(60.6, 200)], want: ["rate-limit/resets-whole"] },
    ],
    [
      "fixed, told by RateLimit-Remaining alone: a whole limit left after the opening's one slot",
      { given: [at(60.3, 200, 9)], want: ["rate-limit/resets-whole"] },
    ],
  ])("%s", (_name, { given, want }) => {
    expect(codes(waited(given)).map(([c]) => c)).toEqual(want);
  });

  it("the finding names the evidence: the counts and the times", () => {
    const [[, title]] = codes(waited([at(45, 200, 9)])) as [[string, string]];
    expect(title).toBe(
      "after waiting the 56 s the server asked for (Retry-After: 56), the first request after it was served 45 s after the window's first request (RateLimit-Remaining 9), while 10 requests served within the last 60 s were still in a sliding window (limit 10): the limit resets whole, a fixed window (up to 20 within seconds across its boundary), not a sliding one",
    );
  });
});

describe("a window used before the run, counted in (no wait for it to empty)", () => {
  /** One request from before the run: the window holds LIMIT - 1 of the run's before the refusal. */
  function usedBefore(servedOver: number): BurstRecord {
    const b = burst(Array.from({ length: LIMIT - 1 }, (_, i) => exchange("getMeta", 200, LIMIT - 2 - i)));
    b.usedAtStart = { before: 1, waitedSeconds: 0 };
    b.overLimit = [
      ...Array.from({ length: servedOver }, () => exchange("getMeta", 200)),
      exchange("getMeta", 429),
    ];
    return b;
  }

  it.each<[string, { given: BurstRecord; want: string[] }]>([
    ["refused after what was left of the window: no early refusal", { given: usedBefore(0), want: [] }],
    [
      "one served over it: the request from before the run may have left meanwhile",
      { given: usedBefore(1), want: [] },
    ],
    [
      "two served over it: more than the requests from before the run explain",
      { given: usedBefore(2), want: ["rate-limit/not-enforced"] },
    ],
  ])("%s", (_name, { given, want }) => {
    expect(codes(given).map(([c]) => c)).toEqual(want);
  });

  it("the note says the requests from before the run were counted in", () => {
    expect(rateLimit.judgeBurst?.(ctx, usedBefore(0)).partial).toMatch(
      /, with 1 request from before the run counted in; not judged:/,
    );
  });
});
