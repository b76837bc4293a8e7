import { describe, expect, it } from "vitest";
import { matrixCode } from "../reporters/matrix.ts";
import { type CheckResult, type CheckStatus, type VerdictFacts, verdictCode, verdictOf } from "./report.ts";

const check = (name: string, status: CheckStatus, reason?: string): CheckResult => ({
  name,
  title: name,
  verifies: name,
  source: "spec",
  severity: "high",
  status,
  cases: status === "pass" ? 1 : 0,
  informative: status === "pass" ? 1 : 0,
  planned: 1,
  sent: 1,
  violations: [],
  ...(reason ? { reason } : {}),
});

const judged = [
  check("cors", "pass"),
  check("rate-limit", "pass"),
  check("other", "skipped", "not selected"),
];
const unjudged = check("head-as-get", "not-exercised", "run cut by --max-time: 2 fallback requests not sent");

/** What a CI job acts on: a run that judged less than it selected never passes. */
describe("verdictOf", () => {
  it.each<[string, { checks: CheckResult[]; facts: VerdictFacts; want: ReturnType<typeof verdictOf> }]>([
    ["every selected check judged", { checks: judged, facts: {}, want: { verdict: "passed", passed: true } }],
    [
      // Regression: a run cut by --max-time with checks not exercised showed a green pass.
      "a check not exercised, the run's own reason first",
      {
        checks: [...judged, unjudged],
        facts: { cut: "the run stopped early: --max-time was reached" },
        want: {
          verdict: "incomplete",
          passed: false,
          incomplete: [
            "the run stopped early: --max-time was reached",
            "head-as-get: run cut by --max-time: 2 fallback requests not sent",
          ],
        },
      },
    ],
    [
      "exploration cut short, every check judged: complete",
      {
        checks: judged,
        facts: { cut: "the run stopped early: --max-time was reached" },
        want: { verdict: "passed", passed: true },
      },
    ],
    [
      "stopped by a signal: incomplete whatever it judged",
      {
        checks: judged,
        facts: { stopped: "the run was stopped (SIGTERM)" },
        want: { verdict: "incomplete", passed: false, incomplete: ["the run was stopped (SIGTERM)"] },
      },
    ],
    [
      "a failure outweighs what was not judged",
      {
        checks: [check("cors", "fail"), unjudged],
        facts: {},
        want: { verdict: "failed", passed: false, incomplete: [`head-as-get: ${unjudged.reason}`] },
      },
    ],
    [
      "an expired --known entry",
      { checks: judged, facts: { expiredKnown: 1 }, want: { verdict: "failed", passed: false } },
    ],
    [
      "--require-evidence: incomplete is failed",
      {
        checks: [...judged, unjudged],
        facts: { requireEvidence: true },
        want: { verdict: "failed", passed: false, incomplete: [`head-as-get: ${unjudged.reason}`] },
      },
    ],
    [
      "the target could not be judged",
      {
        checks: [check("cors", "fail")],
        facts: { error: "not the deal-alert API" },
        want: { verdict: "not-judged", passed: false },
      },
    ],
  ])("%s", (_, { checks, facts, want }) => {
    expect(verdictOf(checks, facts)).toEqual(want);
  });
});

describe("exit codes", () => {
  it.each<[Parameters<typeof verdictCode>, number]>([
    [["passed"], 0],
    [["failed"], 1],
    [["not-judged"], 2],
    [["incomplete"], 3],
    [["incomplete", true], 0],
    [["failed", true], 1],
  ])("verdictCode(%j) = %i", (args, want) => {
    expect(verdictCode(...args)).toBe(want);
  });

  it.each<[number[], number]>([
    [[0, 3], 3],
    [[3, 1], 1],
    [[1, 2, 3], 2],
    [[3, 130, 1], 130],
    [[0, 0], 0],
  ])("several runs %j: the worst is %i", (codes, want) => {
    expect(matrixCode(codes)).toBe(want);
  });
});
