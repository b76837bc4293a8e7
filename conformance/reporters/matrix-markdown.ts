/**
 * The matrix of targets as Markdown (a job summary that checks staging and production together):
 * one line a target with its verdict, the checks × targets table with each cell's status, its
 * evidence and a link to that target's findings, then each target's own report below its anchor.
 */
import type { RunReport } from "../runner/report.ts";
import { runVolume } from "./console.ts";
import { formatMarkdown, VERDICT_ICONS } from "./markdown.ts";
import { type MatrixCell, type MatrixTarget, matrixHeadline, matrixOf } from "./matrix.ts";
import { headline } from "./verdict.ts";

const ICONS: Record<MatrixCell["status"], string> = {
  pass: "✅ passed",
  fail: "❌ failed",
  "not-exercised": "⚪ not exercised",
  skipped: "➖ not selected",
};

/** A table cell: one line, no pipe breaking the row. */
const cell = (s: string) => s.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");

const anchor = (t: MatrixTarget) => `target-${t.number}`;

function matrixCell(c: MatrixCell | undefined, t: MatrixTarget): string {
  if (!c) return "not in this report";
  const evidence = c.status === "skipped" ? "" : ` (${c.informative}/${c.cases})`;
  const findings =
    c.findings > 0 ? ` [${c.findings} finding${c.findings === 1 ? "" : "s"}](#${anchor(t)})` : "";
  return `${ICONS[c.status]}${evidence}${findings}`;
}

/** A target's own report one heading level down, below the matrix (code blocks left as they are). */
function demoted(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (line.startsWith("```")) fenced = !fenced;
      return !fenced && /^#{2,5} /.test(line) ? `#${line}` : line;
    })
    .join("\n");
}

/** A target's verdict in the summary table: its icon and headline ("🟡 incomplete: …; 2 checks not judged"). */
function verdictWords(r: RunReport): string {
  const icon = r.stopped ? "⏹️" : VERDICT_ICONS[r.verdict];
  return `${icon} ${headline(r).words}`;
}

export function formatMatrixMarkdown(reports: RunReport[]): string {
  const { targets, rows } = matrixOf(reports);
  const { verdict, words } = matrixHeadline(targets);
  const lines = [
    `## ${VERDICT_ICONS[verdict]} dealkit conformance: ${words}`,
    "",
    "| # | target | verdict | requests |",
    "|---|---|---|---|",
    ...targets.map(
      (t) =>
        `| ${t.number} | [\`${cell(t.label)}\`](#${anchor(t)}) | ${cell(verdictWords(t.report))} | ${cell(runVolume(t.report))} |`,
    ),
    "",
    "### Checks × targets",
    "",
    `Each cell: the status, its evidence (informative/judged answers) and the findings; ${rows.filter((r) => r.differs).length} checks differ across the targets (marked ≠).`,
    "",
    `| check | ${targets.map((t) => t.number).join(" | ")} |`,
    `|---|${targets.map(() => "---").join("|")}|`,
    ...rows.map(
      (r) =>
        `| ${r.differs ? "≠ " : ""}\`${cell(r.check)}\` | ${r.cells.map((c, i) => matrixCell(c, targets[i] as MatrixTarget)).join(" | ")} |`,
    ),
  ];
  for (const t of targets)
    lines.push(
      "",
      `<a id="${anchor(t)}"></a>`,
      "",
      `### Target ${t.number}: \`${cell(t.label)}\``,
      "",
      demoted(formatMarkdown(t.report)).trimEnd(),
    );
  return `${lines.join("\n")}\n`;
}
