/**
 * Three targets' JSON reports for the matrix tests: a passing reference, a mock with a check it
 * could not exercise (and one of a newer version), and a broken target.
 */
import type { CheckResult, RunReport } from "../runner/report.ts";
import { failingRun } from "./html-fixtures.ts";

export const broken = failingRun(40);
const passing = (c: CheckResult): CheckResult => ({
  ...c,
  status: c.status === "skipped" ? "skipped" : "pass",
  informative: 7,
  violations: [],
});
export const reference: RunReport = {
  ...broken,
  baseUrl: "http://127.0.0.1:1001",
  checks: broken.checks.map(passing),
  causes: [],
  verdict: "passed",
  passed: true,
};
export const mock: RunReport = {
  ...reference,
  baseUrl: "http://127.0.0.1:1002",
  // The mock's examples hold too little for one check, and it has a check of a newer version.
  checks: [
    ...reference.checks.map((c) =>
      c.name === "relation:search-subset"
        ? { ...c, status: "not-exercised" as const, informative: 0, reason: "no matching data found" }
        : c,
    ),
    { ...(reference.checks[0] as CheckResult), name: "rule:newer", title: "a rule of v1.1" },
  ],
  verdict: "incomplete",
  incomplete: ["relation:search-subset: no matching data found"],
  passed: false,
};
export const reports = [reference, mock, broken];
