/**
 * A matrix of targets: the same checks run against several implementations (the reference, a
 * vendor's, staging and production), one row a check, one column a target. What both matrix
 * reporters (matrix-html.ts, matrix-markdown.ts) show, computed once: each target's label and
 * anchor, and each cell's status, evidence and findings.
 */
import { type CheckResult, EXIT_INCOMPLETE, type RunReport, type Verdict } from "../runner/report.ts";
import { plural } from "./plural.ts";
import { asShown, VERDICT_WORDS } from "./verdict.ts";

export interface MatrixTarget {
  /** What the column is called: the base URL, numbered when two reports name the same. */
  label: string;
  /** 1-based, as the page numbers the columns. */
  number: number;
  /** The prefix of its element ids inside one HTML page (`t2-finding-3`). */
  prefix: string;
  report: RunReport;
}

export interface MatrixCell {
  status: CheckResult["status"];
  informative: number;
  cases: number;
  /** Findings not accepted by --known (what fails the check). */
  findings: number;
  /** The first finding's index among its report's findings (in report order), for the link. */
  firstFinding?: number;
  reason?: string;
}

export interface MatrixRow {
  check: string;
  /** What it verifies (its title names the violation it finds, wrong beside a pass). */
  verifies: string;
  /** One cell a target; undefined when that target's report has no such check (another version). */
  cells: (MatrixCell | undefined)[];
  /** The targets do not all agree on the status. */
  differs: boolean;
}

export interface Matrix {
  targets: MatrixTarget[];
  rows: MatrixRow[];
}

/** Labels for the columns: the base URL, with "(2)", "(3)" when several reports name the same. */
function labels(reports: RunReport[]): string[] {
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const r of reports) total.set(r.baseUrl, (total.get(r.baseUrl) ?? 0) + 1);
  return reports.map((r) => {
    const n = (seen.get(r.baseUrl) ?? 0) + 1;
    seen.set(r.baseUrl, n);
    return (total.get(r.baseUrl) ?? 0) > 1 ? `${r.baseUrl} (${n})` : r.baseUrl;
  });
}

/** Each violation's index among its report's findings, in report order (as findingIds numbers them). */
function findingIndexes(report: RunReport): Map<CheckResult, number> {
  const first = new Map<CheckResult, number>();
  let n = 0;
  for (const c of report.checks) {
    const open = c.violations.findIndex((v) => !v.known);
    if (open >= 0) first.set(c, n + open + 1);
    n += c.violations.length;
  }
  return first;
}

export function matrixOf(given: RunReport[]): Matrix {
  const reports = given.map(asShown);
  const names = labels(reports);
  const targets = reports.map((report, i) => ({
    label: names[i] ?? report.baseUrl,
    number: i + 1,
    prefix: `t${i + 1}-`,
    report,
  }));
  const order: { check: string; verifies: string }[] = [];
  const known = new Set<string>();
  for (const r of reports)
    for (const c of r.checks)
      if (!known.has(c.name)) {
        known.add(c.name);
        order.push({ check: c.name, verifies: c.verifies });
      }
  const byName = reports.map((r) => new Map(r.checks.map((c) => [c.name, c])));
  const firsts = reports.map(findingIndexes);
  const rows = order.map(({ check, verifies }) => {
    const cells = byName.map((m, i): MatrixCell | undefined => {
      const c = m.get(check);
      if (!c) return undefined;
      const first = firsts[i]?.get(c);
      const reason = c.reason ?? (c.status === "pass" ? c.note : undefined);
      return {
        status: c.status,
        informative: c.informative,
        cases: c.cases,
        findings: c.violations.filter((v) => !v.known).length,
        ...(first !== undefined ? { firstFinding: first } : {}),
        ...(reason ? { reason } : {}),
      };
    });
    const statuses = new Set(cells.map((c) => c?.status ?? "absent"));
    return { check, verifies, cells, differs: statuses.size > 1 };
  });
  return { targets, rows };
}

/** The verdicts from the worst: what a matrix's headline names first (matrixCode's order). */
const WORST_FIRST: Verdict[] = ["not-judged", "failed", "incomplete", "passed"];

/**
 * The matrix's headline: its worst verdict, and how many targets had each verdict but a pass
 * ("All 3 targets passed", "2 of 3 targets failed · 1 incomplete"). A matrix with one target
 * incomplete and the rest passed is incomplete, never "all passed".
 */
export function matrixHeadline(targets: MatrixTarget[]): { verdict: Verdict; words: string } {
  const count = (v: Verdict) => targets.filter((t) => t.report.verdict === v).length;
  const verdict = WORST_FIRST.find((v) => count(v) > 0) ?? "passed";
  const all = plural(targets.length, "target");
  if (verdict === "passed") return { verdict, words: `all ${all} passed` };
  const words = WORST_FIRST.filter((v) => v !== "passed" && count(v) > 0)
    .map((v, i) => `${count(v)}${i === 0 ? ` of ${all}` : ""} ${VERDICT_WORDS[v]}`)
    .join(" · ");
  return { verdict, words };
}

/**
 * The exit code of several runs, the worst first: a stop by a signal (128 + its number), then 2 (a
 * target not judged), 1 (failed), 3 (incomplete), 0 (passed).
 */
export function matrixCode(codes: number[]): number {
  if (codes.some((c) => c >= 128)) return Math.max(...codes);
  return [2, 1, EXIT_INCOMPLETE].find((c) => codes.includes(c)) ?? 0;
}
