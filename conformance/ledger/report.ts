/**
 * The ledger's judgements in a run's report, like any check: a failing judgement is a violation
 * of its check (with the ledger's evidence as what was received), warnings and information are
 * notes, and a check the ledger could judge and found nothing against passes.
 */
import { type AcceptEntry, applyAcceptList } from "../../src/accept/list.ts";
import { acceptedNote, knownMatches, unusedNote } from "../runner/known.ts";
import type { CheckResult, RunReport } from "../runner/report.ts";
import type { Severity, Violation } from "../types.ts";
import { isLedgerCheck, LEDGER_CHECKS, type LedgerCheck, type LedgerJudgement } from "./judge.ts";
import type { Ledger } from "./types.ts";

const SEVERITY: Record<LedgerCheck, Severity> = {
  "ledger:field-removed": "high",
  "ledger:type-changed": "high",
  "ledger:v1-retired-early": "critical",
  "ledger:field-added": "low",
};

const SOURCE = "#/x-versioning (additive_only, min_support_months_after_successor)";

function violation(j: LedgerJudgement, path: string): Violation {
  return {
    check: j.check,
    code: j.path ? `${j.check}/${j.path}` : j.check,
    title: j.title,
    severity: SEVERITY[j.check],
    operation: j.operation,
    received: j.evidence,
    documented: LEDGER_CHECKS[j.check],
    request: `(the ledger ${path}: ${j.answerKind ?? j.operation})`,
    seed: 0,
    replay: `read ${path} (dealkit ledger, format 1): ${j.answerKind ?? ""} ${j.path ?? ""}`.trim(),
  };
}

/** One line for a warning or an information judgement. */
export const judgementLine = (j: LedgerJudgement): string => `ledger ${j.level}: ${j.title}`;

/** --known entries (the run's own were matched before) and the day their dates are judged by, YYYY-MM-DD. */
export interface KnownLedgerFindings {
  entries: AcceptEntry[];
  today: string;
}

/**
 * The report with the ledger's checks added, its notes, and the verdict they change. A failing
 * judgement a --known entry accepts is shown, marked known, and does not fail its check; an entry
 * past its date already failed the run (run.ts), whatever it names.
 */
export function withLedger(
  report: RunReport,
  judgements: LedgerJudgement[],
  ledger: Ledger,
  path: string,
  known: KnownLedgerFindings = { entries: [], today: "" },
): RunReport {
  const fields = Object.values(ledger.kinds).reduce((n, k) => n + Object.keys(k.fields).length, 0);
  const history = `${ledger.runs} runs, ${Object.keys(ledger.kinds).length} kinds of answer, ${fields} field paths`;
  const failures = judgements.filter((j) => j.level === "failure").map((j) => violation(j, path));
  // Entries past their date accept nothing (applyAcceptList); run.ts already failed the run for them.
  const accepted = applyAcceptList(
    failures,
    known.entries.filter((e) => isLedgerCheck(e.match.check)),
    knownMatches,
    known.today,
  );
  for (const { finding, entry } of accepted.accepted)
    finding.known = { reason: entry.reason, expires: entry.expires };
  const checks: CheckResult[] = (Object.keys(LEDGER_CHECKS) as LedgerCheck[])
    .filter((name) => name !== "ledger:field-added")
    .map((name) => {
      const failing = failures.filter((v) => v.check === name);
      const open = failing.filter((v) => !v.known);
      const judgedSomething =
        name === "ledger:v1-retired-early" ? Object.keys(ledger.versions).length > 0 : fields > 0;
      const knownNote = failing.length > open.length ? `; ${acceptedNote(failing.length - open.length)}` : "";
      return {
        name,
        title: LEDGER_CHECKS[name],
        verifies: LEDGER_CHECKS[name],
        source: SOURCE,
        severity: SEVERITY[name],
        // A ledger's first run has nothing before it: not a gap in this run (no incomplete verdict).
        status:
          open.length > 0
            ? "fail"
            : failing.length > 0 || (ledger.runs > 1 && judgedSomething)
              ? "pass"
              : ledger.runs > 1
                ? "not-exercised"
                : "skipped",
        cases: ledger.runs,
        informative: ledger.runs > 1 ? ledger.runs : 0,
        planned: 0,
        sent: 0,
        violations: failing,
        ...(ledger.runs > 1
          ? { note: `ledger ${path}: ${history}${knownNote}` }
          : { reason: `the ledger ${path} holds one run: nothing earlier to compare with` }),
      };
    });
  const notes = [
    ...judgements.filter((j) => j.level !== "failure").map(judgementLine),
    ...accepted.unused.map(unusedNote),
  ];
  return {
    ...report,
    checks: [...report.checks, ...checks],
    notes: [...report.notes, `ledger ${path} updated: ${history}`, ...notes],
    ...withLedgerVerdict(report, checks),
  };
}

/** The run's verdict with the ledger's checks added: one failing fails it, one not judged leaves it incomplete. */
function withLedgerVerdict(
  report: RunReport,
  checks: CheckResult[],
): Pick<RunReport, "verdict" | "passed" | "incomplete"> {
  const kept = {
    verdict: report.verdict,
    passed: report.passed,
    ...(report.incomplete ? { incomplete: report.incomplete } : {}),
  };
  if (report.verdict === "not-judged") return kept;
  if (checks.some((c) => c.status === "fail")) return { ...kept, verdict: "failed", passed: false };
  const unjudged = checks
    .filter((c) => c.status === "not-exercised")
    .map((c) => `${c.name}: ${c.reason ?? "nothing in the ledger to judge"}`);
  if (unjudged.length === 0 || report.verdict === "failed") return kept;
  return { verdict: "incomplete", passed: false, incomplete: [...(report.incomplete ?? []), ...unjudged] };
}
