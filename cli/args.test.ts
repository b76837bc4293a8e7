/**
 * A mistyped command line is answered in our words, with the option or command meant. Regression:
 * node:util's own messages left a quote open (`--base-ulr`), called `--max-time -5` ambiguous
 * instead of out of range, and offered no suggestion.
 */
import { describe, expect, it } from "vitest";
import { intOption, parseOptions, UsageError } from "./args.ts";
import { didYouMean } from "./did-you-mean.ts";

const OPTIONS = {
  "base-url": { type: "string", multiple: true },
  "max-time": { type: "string" },
  "skip-slow": { type: "boolean" },
  plan: { type: "boolean" },
  seed: { type: "string" },
} as const;

/** The UsageError message parsing `args` (and reading --max-time as the conformance command does) gives. */
function problemOf(args: string[]): string | undefined {
  try {
    const { values } = parseOptions(args, OPTIONS);
    intOption("max-time", values["max-time"], 1, 86_400);
    return undefined;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return err.message;
  }
}

describe("parseOptions: what a mistyped option is told", () => {
  it.each([
    [
      "an option misspelt",
      { given: ["--base-ulr", "http://x"], want: "unknown option --base-ulr (did you mean --base-url?)" },
    ],
    [
      "a misspelt option with its value inline",
      { given: ["--skip-slw=1"], want: "unknown option --skip-slw (did you mean --skip-slow?)" },
    ],
    ["an option nothing resembles", { given: ["--frobnicate"], want: "unknown option --frobnicate" }],
    ["a short option (there are none)", { given: ["-x"], want: "unknown option -x" }],
    [
      "a negative number for a numeric option",
      { given: ["--max-time", "-5"], want: '--max-time must be an integer from 1 to 86400, got "-5"' },
    ],
    [
      "a negative number written inline",
      { given: ["--max-time=-5"], want: '--max-time must be an integer from 1 to 86400, got "-5"' },
    ],
    ["a value left out at the end", { given: ["--seed"], want: "--seed needs a value" }],
    [
      "a value left out before another option",
      { given: ["--max-time", "--plan"], want: "--max-time needs a value, but --plan follows it" },
    ],
    ["a switch given a value", { given: ["--plan=yes"], want: "--plan takes no value, got --plan=yes" }],
  ])("%s", (_name, { given, want }) => {
    expect(problemOf(given)).toBe(want);
  });

  it("returns the values and positionals strict parsing gives for a line it accepts", () => {
    const { values, positionals } = parseOptions(
      ["--base-url", "http://a", "--base-url=http://b", "--plan", "--seed", "7", "x"],
      OPTIONS,
    );
    expect({ ...values }).toEqual({ "base-url": ["http://a", "http://b"], plan: true, seed: "7" });
    expect(positionals).toEqual(["x"]);
    expect(parseOptions(["--", "--plan"], OPTIONS).positionals).toEqual(["--plan"]);
  });
});

describe("didYouMean", () => {
  it.each([
    ["a letter left out", { given: "conformace", want: " (did you mean conformance?)" }],
    ["two letters swapped", { given: "base-ulr", want: " (did you mean base-url?)" }],
    ["a different case", { given: "SERVE", want: " (did you mean serve?)" }],
    ["equally near names, both named", { given: "sead", want: " (did you mean seed or send?)" }],
    ["nothing near", { given: "xyz", want: "" }],
  ])("%s", (_name, { given, want }) => {
    expect(didYouMean(given, ["conformance", "serve", "base-url", "seed", "send"])).toBe(want);
  });
});
