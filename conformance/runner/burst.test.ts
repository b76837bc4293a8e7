import { describe, expect, it } from "vitest";
import type { Exchange } from "../types.ts";
import { waitWords } from "./burst.ts";

const refusal = (headers: Record<string, string>) => ({ status: 429, headers }) as unknown as Exchange;

/** The log says what the wait after the burst is for, as the answers have it. */
describe("waitWords", () => {
  it.each<[string, { given: [Exchange | undefined, number, number]; want: string }]>([
    [
      "a usable Retry-After",
      { given: [refusal({ "retry-after": "41" }), 41, 41], want: "waiting Retry-After 41 s" },
    ],
    [
      "a Retry-After beyond the window",
      {
        given: [refusal({ "retry-after": "90" }), 90, 60],
        want: "waiting Retry-After 60 s (it said 90 s: never longer than the window)",
      },
    ],
    [
      // Regression: "waiting the 60 s the server asked for", though it asked nothing.
      "a 429 without Retry-After",
      {
        given: [refusal({}), Number.NaN, 60],
        want: "the 429 asked no wait (no Retry-After): waiting the whole 60-second window",
      },
    ],
    [
      "a Retry-After that is a date",
      {
        given: [refusal({ "retry-after": "Sun, 29 Nov 2026 02:00:00 GMT" }), Number.NaN, 60],
        want: 'the 429\'s Retry-After "Sun, 29 Nov 2026 02:00:00 GMT" is no delay in seconds: waiting the whole 60-second window',
      },
    ],
    [
      // Regression: "the 429 gave no usable Retry-After (none)", though no 429 was ever sent.
      "no 429 at all",
      {
        given: [undefined, Number.NaN, 60],
        want: "no request over the limit was refused: waiting the whole 60-second window all the same",
      },
    ],
  ])("%s", (_, { given, want }) => {
    expect(waitWords(...given)).toBe(want);
  });
});
