/**
 * The rate diagnosis says what the 429s show, and paces by it: a refusal a cache replayed from its
 * storage is no limiter counting this client (no probe, the addresses not pooled as one client),
 * and the wait line says what the refusal asked, or that there was none.
 */
import { describe, expect, it } from "vitest";
import type { Pacer } from "../http/pacer.ts";
import type { Exchange } from "../types.ts";
import { RateDiagnosis, waitLine } from "./diagnosis.ts";

const refusal = (headers: Record<string, string>, replayed?: string): Exchange => ({
  request: { method: "GET", pathname: "/api/v1/meta", query: [], headers: {}, label: "t" },
  url: "http://t/api/v1/meta",
  status: 429,
  headers,
  text: "",
  body: "",
  sentAt: 10,
  receivedAt: 10.1,
  ...(replayed ? { replayed } : {}),
});

function pacer() {
  const calls = { pooled: 0 };
  return { calls, pacer: { inWindow: () => 3, pool: () => calls.pooled++ } as unknown as Pacer };
}

describe("RateDiagnosis: an unexpected 429", () => {
  it.each([
    ["a cache's X-Cache-Status: HIT", refusal({ "x-cache-status": "HIT", "retry-after": "30" }), false],
    ["Age", refusal({ age: "4" }), false],
    [
      "a replayed Date",
      refusal({}, "the Date (D1), RateLimit-Remaining (0) and body of the answer to the same URL 3 s before"),
      false,
    ],
    ["a limiter's own (a fresh address refused too)", refusal({ "retry-after": "30" }), true],
  ])("%s", async (_what, e, countedTogether) => {
    let probed = 0;
    const { calls, pacer: p } = pacer();
    const d = new RateDiagnosis(
      () => ({ limit: 60, windowSeconds: 60 }),
      () => {},
      async () => {
        probed++;
        return true;
      },
    );
    expect(await d.unexpected(e, p, "127.0.0.10")).toBe("rest");
    expect({ countedTogether: d.countedTogether, probed, pooled: calls.pooled }).toEqual(
      countedTogether
        ? { countedTogether: true, probed: 1, pooled: 1 }
        : { countedTogether: false, probed: 0, pooled: 0 },
    );
    if (!countedTogether) expect(d.notes[0]).toMatch(/^rate limit: a 429 came from a cache's storage/);
  });
});

describe("waitLine: the wait after going over the limit, as the refusal asked it", () => {
  it.each([
    [
      "no 429 at all",
      undefined,
      "rate limit: no request over the limit was refused (no 429): waiting the whole 60-second window (3 refused requests in it)",
    ],
    [
      "a 429 without Retry-After",
      refusal({}),
      "rate limit: the 429 asked no wait (no Retry-After): waiting the whole 60-second window (3 refused requests in it)",
    ],
    [
      "a Retry-After that is no number",
      refusal({ "retry-after": "soon" }),
      "rate limit: the 429's Retry-After (soon) is no number of seconds: waiting the whole 60-second window (3 refused requests in it)",
    ],
    [
      "a Retry-After beyond the window",
      refusal({ "retry-after": "90" }),
      "rate limit: waiting Retry-After 60 s (it said 90 s: never longer than the window) (3 refused requests in it)",
    ],
    [
      "a Retry-After",
      refusal({ "retry-after": "12" }),
      "rate limit: waiting Retry-After 12 s (3 refused requests in it)",
    ],
  ])("%s", (_what, e, line) => {
    expect(waitLine(e, 60, 3)).toBe(line);
  });
});
