/**
 * One report of each verdict, as the runner writes them, for the tests that every format states
 * it: passed, failed, incomplete (cut by --max-time; the burst's window already used), not judged
 * (not this API, its discovery answers still carrying violations), stopped by a signal, and a JSON
 * report written before verdicts existed.
 */
import type { CheckResult, RunReport } from "../runner/report.ts";
import { failingRun } from "./html-fixtures.ts";

const base = failingRun(40);
const judged = (c: CheckResult): CheckResult => ({ ...c, status: "pass", informative: 7, violations: [] });
const unjudged = (c: CheckResult, reason: string): CheckResult => ({
  ...c,
  status: "not-exercised",
  informative: 0,
  violations: [],
  reason,
});
const allPass = base.checks.filter((c) => c.status !== "skipped").map(judged);

export const passed: RunReport = { ...base, checks: allPass, causes: [], verdict: "passed", passed: true };

export const failed: RunReport = base;

export const MAX_TIME = "the run stopped early: --max-time was reached";
const CUT = "run cut by --max-time: 0 of its 4 planned requests sent";
export const cutByMaxTime: RunReport = {
  ...passed,
  checks: allPass.map((c, i) => (i < 2 ? unjudged(c, CUT) : c)),
  notes: ["stopped early: --max-time was reached"],
  verdict: "incomplete",
  incomplete: [MAX_TIME, ...allPass.slice(0, 2).map((c) => `${c.name}: ${CUT}`)],
  passed: false,
};

export const WINDOW_USED =
  "the window of this address was not empty when the run began (41 of 60 left): the burst could not reach the limit";
export const windowUsed: RunReport = {
  ...passed,
  checks: allPass.map((c) => (c.name === "rate-limit" ? unjudged(c, WINDOW_USED) : c)),
  verdict: "incomplete",
  incomplete: [`rate-limit: ${WINDOW_USED}`],
  passed: false,
};

export const NOT_THIS_API =
  "not the deal-alert API (no JSON envelope, problem body or 429 in 4 answers): GET /api/v1/meta → 404 text/html";
/** What the runner writes today: every check unjudged, yet the discovery answers' violations kept. */
export const notThisApi: RunReport = {
  ...base,
  checks: base.checks.map((c) =>
    c.status === "skipped" ? c : { ...c, status: "not-exercised", reason: "the run stopped before judging" },
  ),
  error: NOT_THIS_API,
  verdict: "not-judged",
  passed: false,
};

export const stopped: RunReport = {
  ...cutByMaxTime,
  stopped: "the run was stopped (SIGINT)",
  incomplete: ["the run was stopped (SIGINT)", ...(cutByMaxTime.incomplete ?? []).slice(1)],
  notes: [],
};

/** A JSON report of a version before verdicts: `passed` false and no `verdict`, one check unjudged. */
export function beforeVerdicts(report: RunReport): RunReport {
  const { verdict: _verdict, incomplete: _incomplete, ...old } = report;
  return old as RunReport;
}
