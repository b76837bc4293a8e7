/**
 * rate-limit-reset on synthetic answers: RateLimit-Reset is "seconds until at least one more
 * request is allowed" (0 while requests remain; Retry-After's value on a 429; within the window).
 * Guards against a server stating the window's length as Reset whatever the count (the planted
 * `reset-always-window`), which passed every check before this one.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { BurstRecord, CheckContext, Exchange } from "../types.ts";
import { rateLimitReset } from "./rate-limit-reset.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };

function answer(status: number, headers: Record<string, string>, failed = false): Exchange {
  return {
    request: { method: "GET", pathname: "/api/v1/meta", query: [], headers: {}, label: "t" },
    url: "http://t/api/v1/meta",
    operation: spec.operation("getMeta"),
    status,
    headers,
    text: "",
    body: "",
    sentAt: 1,
    receivedAt: 2,
    ...(failed ? { failure: { kind: "timeout", message: "t" } as Exchange["failure"] } : {}),
  };
}

const window = (remaining: number, reset: number | string, retryAfter?: number) => ({
  "ratelimit-limit": "60",
  "ratelimit-remaining": String(remaining),
  "ratelimit-reset": String(reset),
  ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) }),
});

const cases: [string, { given: Exchange; want: string[]; evidence: unknown }][] = [
  ["requests remain, Reset 0", { given: answer(200, window(59, 0)), want: [], evidence: "requests-remain" }],
  [
    "requests remain, Reset the window's length (reset-always-window)",
    {
      given: answer(200, window(59, 60)),
      want: ["rate-limit-reset/requests-remain"],
      evidence: "requests-remain",
    },
  ],
  [
    "requests remain, Reset until a slot frees",
    {
      given: answer(400, window(12, 37)),
      want: ["rate-limit-reset/requests-remain"],
      evidence: "requests-remain",
    },
  ],
  ["none remain, Reset until a slot frees", { given: answer(200, window(0, 37)), want: [], evidence: true }],
  [
    "none remain, Reset beyond the window",
    { given: answer(200, window(0, 61)), want: ["rate-limit-reset/beyond-window"], evidence: true },
  ],
  [
    "429, Reset equal to Retry-After",
    { given: answer(429, window(0, 37, 37)), want: [], evidence: "refused" },
  ],
  [
    "429, Reset a second off Retry-After",
    { given: answer(429, window(0, 38, 37)), want: [], evidence: "refused" },
  ],
  [
    "429, Reset the window while Retry-After is the real wait",
    {
      given: answer(429, window(0, 60, 37)),
      want: ["rate-limit-reset/not-retry-after"],
      evidence: "refused",
    },
  ],
  [
    "429, Reset 0 (a request said to be allowed now)",
    { given: answer(429, window(0, 0, 12)), want: ["rate-limit-reset/not-retry-after"], evidence: "refused" },
  ],
  [
    // Retry-After beyond the window is rate-limit's finding; the two agreeing is this one's.
    "429, both beyond the window",
    { given: answer(429, window(0, 90, 90)), want: [], evidence: "refused" },
  ],
  [
    "429 without Retry-After, Reset beyond the window",
    { given: answer(429, window(0, 90)), want: ["rate-limit-reset/beyond-window"], evidence: true },
  ],
];

describe("rate-limit-reset", () => {
  it.each(cases)("%s", (_name, { given, want, evidence }) => {
    expect(rateLimitReset.judge?.(ctx, given)?.map((f) => f.code)).toEqual(want);
    expect(rateLimitReset.informative?.(ctx, given)).toEqual(evidence);
  });

  const none: [string, Exchange][] = [
    ["no RateLimit-* at all (a limiter in front's page)", answer(429, { "retry-after": "5" })],
    ["a malformed Reset (response-headers' finding)", answer(200, window(59, "soon"))],
    ["no whole answer", answer(200, window(59, 60), true)],
  ];
  it.each(none)("judges nothing and counts no evidence: %s", (_name, given) => {
    expect(rateLimitReset.judge?.(ctx, given)).toBeNull();
    expect(rateLimitReset.informative?.(ctx, given)).toHaveProperty("none");
  });
});

/** An answer of the burst sent `at` s after its first request (answered half a second later). */
const sentAt = (at: number, status: number, headers: Record<string, string>): Exchange => ({
  ...answer(status, headers),
  sentAt: 1000 + at,
  receivedAt: 1000 + at + 0.5,
});

/** A 10-second window: the first request at 0 s (left at 10.5 s at the latest), the limit reached 3 s in. */
function burstOf(last: Exchange, refusal: Exchange): BurstRecord {
  return {
    address: undefined,
    limit: 60,
    windowSeconds: 10,
    window: [sentAt(0, 200, window(59, 0)), sentAt(3, 200, window(0, 8)), last],
    opening: 1,
    overLimit: [refusal],
    refill: [],
    otherEndpoints: [],
    knocks: [],
  };
}

describe("rate-limit-reset in the burst: no later than the window's first request leaves", () => {
  const cases: [string, { given: BurstRecord; want: string[]; informative: boolean }][] = [
    [
      "a sliding window's Reset: the time until the first request leaves",
      {
        given: burstOf(sentAt(3.5, 200, window(0, 7)), sentAt(4, 429, window(0, 7, 7))),
        want: [],
        informative: true,
      },
    ],
    [
      "the window's length at every count (reset-always-window), Retry-After saying the same",
      {
        given: burstOf(sentAt(3.5, 200, window(0, 10)), sentAt(4, 429, window(0, 10, 10))),
        want: ["rate-limit-reset/beyond-oldest"],
        informative: true,
      },
    ],
    [
      "a 429 stating 9 s when 6.5 s are left: over the bound by more than the rounding",
      {
        given: burstOf(sentAt(3.5, 200, window(0, 7)), sentAt(4, 429, window(0, 9, 9))),
        want: ["rate-limit-reset/beyond-oldest"],
        informative: true,
      },
    ],
    [
      "an answer from storage (a cache's replay) is not the limiter's",
      {
        given: burstOf(
          sentAt(3.5, 200, { ...window(0, 10), "x-cache-status": "HIT" }),
          sentAt(4, 429, window(0, 7, 7)),
        ),
        want: [],
        informative: true,
      },
    ],
  ];
  it.each(cases)("%s", (_name, { given, want, informative }) => {
    const verdict = rateLimitReset.judgeBurst?.(ctx, given);
    expect(verdict?.findings.map((f) => f.finding.code)).toEqual(want);
    expect(verdict?.informative).toBe(informative);
  });

  it("the finding names the evidence: the Reset, when the answer was sent, when the first request leaves", () => {
    const verdict = rateLimitReset.judgeBurst?.(
      ctx,
      burstOf(sentAt(3.5, 200, window(0, 10)), sentAt(4, 429, window(0, 10, 10))),
    );
    expect(verdict?.findings[0]?.finding.title).toBe(
      "RateLimit-Reset 10 s on an answer sent 3.5 s after the window's first request, which leaves the 10-second window within 7.0 s: a slot frees by then",
    );
  });
});
