/**
 * The verdict as every reporter states it, computed once: which of the four it is, its headline
 * words, and the reasons an incomplete run gives. A CI user acts on the headline, so no format
 * may show a pass for a run that failed, was cut short, or judged nothing.
 */
import {
  type CheckResult,
  passiveVerdict,
  type RunReport,
  type Verdict,
  verdictOf,
} from "../runner/report.ts";
import { plural } from "./plural.ts";

/**
 * The report as the reporters show it. A JSON report written before verdicts existed gets one
 * derived from its checks. A run that judged nothing (not this API, unreachable) shows no finding:
 * what its discovery answers broke is not a judgement of the target.
 */
export function asShown(report: RunReport): RunReport {
  const derived = withVerdict(report);
  if (derived.verdict !== "not-judged") return derived;
  return {
    ...derived,
    causes: [],
    checks: derived.checks.map((c) => (c.violations.length > 0 ? { ...c, violations: [] } : c)),
  };
}

/** The report with its verdict: its own, or for a JSON report written before verdicts existed, its checks'. */
export function withVerdict(report: RunReport): RunReport {
  if (report.verdict) return report;
  if (report.mode === "passive") return { ...report, ...passiveVerdict(report.checks) };
  return {
    ...report,
    ...verdictOf(report.checks, {
      ...(report.error ? { error: report.error } : {}),
      expiredKnown: report.expiredKnown?.length ?? 0,
      ...(report.stopped ? { stopped: report.stopped } : {}),
      requireEvidence: report.requireEvidence,
    }),
  };
}

/** The verdict of a report, derived for one written before verdicts existed. */
export const verdictOfReport = (report: RunReport): Verdict => withVerdict(report).verdict;

export interface Headline {
  verdict: Verdict;
  /**
   * The headline's words: "passed", "3 checks failed", "incomplete: the run stopped early:
   * --max-time was reached; 9 checks not judged", "could not judge the target".
   */
  words: string;
  /** What a verdict cell says beside its word: what failed, why it is incomplete, the error; "" for a pass. */
  why: string;
  /** Why it is incomplete (or, under --require-evidence, failed): the run's reason first, then each check's. */
  reasons: string[];
}

const notJudged = (checks: CheckResult[]) => checks.filter((c) => c.status === "not-exercised");

/** The run's own reasons (a stop, --max-time), before the "check: reason" lines of verdictOf. */
function runReasons(report: RunReport): string[] {
  const names = new Set(notJudged(report.checks).map((c) => c.name));
  return (report.incomplete ?? []).filter((r) => !names.has(r.slice(0, r.indexOf(": "))));
}

/** Why a run is incomplete, in a line: its own reason, else its first check's, then how many checks it left. */
function incompleteWhy(report: RunReport): string {
  const unjudged = notJudged(report.checks).length;
  const [first] = [...runReasons(report), ...(report.incomplete ?? [])];
  const left = unjudged > 0 ? `${plural(unjudged, "check")} not judged` : "";
  return [first, left].filter(Boolean).join("; ") || "not every selected check was judged";
}

function failedWhy(report: RunReport): string {
  const failed = report.checks.filter((c) => c.status === "fail").length;
  if (failed > 0) return `${plural(failed, "check")} failed`;
  if (report.expiredKnown?.length) return "a known finding expired";
  return `${plural(notJudged(report.checks).length, "check")} not judged (--require-evidence)`;
}

/** The headline of a report (asShown first, so an older report has its verdict too). */
export function headline(input: RunReport): Headline {
  const report = asShown(input);
  const why = {
    passed: () => "",
    failed: () => failedWhy(report),
    incomplete: () => incompleteWhy(report),
    "not-judged": () => report.error ?? "",
  }[report.verdict]();
  const words = {
    passed: "passed",
    failed: why,
    incomplete: `incomplete: ${why}`,
    "not-judged": "could not judge the target",
  }[report.verdict];
  return { verdict: report.verdict, words, why, reasons: report.incomplete ?? [] };
}

/** The verdict in one word or two, for a table cell or a page title. */
export const VERDICT_WORDS: Record<Verdict, string> = {
  passed: "passed",
  failed: "failed",
  incomplete: "incomplete",
  "not-judged": "not judged",
};
