/**
 * The matrix of targets as one self-contained HTML page: which target passes which check, with
 * the evidence each had, and every target's own verdict, findings, run facts, timeline and plan
 * in the same file (element ids behind the target's prefix, `t2-finding-3`), so a cell's link
 * opens the very finding.
 */
import type { RunReport } from "../runner/report.ts";
import { runVolume } from "./console.ts";
import { facts, findingIds, findings, kindOf, page, timeline, verdict } from "./html.ts";
import { text } from "./html-escape.ts";
import { plan } from "./html-plan.ts";
import { type MatrixCell, type MatrixTarget, matrixHeadline, matrixOf } from "./matrix.ts";
import { plural } from "./plural.ts";
import { headline, VERDICT_WORDS } from "./verdict.ts";

const WORDS: Record<MatrixCell["status"], string> = {
  pass: "passed",
  fail: "failed",
  "not-exercised": "not exercised",
  skipped: "not selected",
};

/** A target's verdict in the summary table: its word, then why (what failed, what was not judged, the error). */
function verdictCells(r: RunReport): string {
  return `<td class="st st-${r.verdict}">${VERDICT_WORDS[r.verdict]}${r.stopped ? " (stopped)" : ""}</td><td class="muted">${text(headline(r).why, 300)}</td>`;
}

function cell(c: MatrixCell | undefined, t: MatrixTarget): string {
  if (!c) return '<td class="muted">not in this report</td>';
  const evidence =
    c.status === "skipped" ? "" : `<br><span class="muted">${c.informative} of ${c.cases}</span>`;
  const link =
    c.firstFinding !== undefined
      ? `<br><a href="#${t.prefix}finding-${c.firstFinding}">${plural(c.findings, "finding")}</a>`
      : "";
  const why = c.status === "not-exercised" && c.reason ? ` title="${text(c.reason, 300)}"` : "";
  return `<td class="st st-${c.status}"${why}>${WORDS[c.status]}${evidence}${link}</td>`;
}

function targetSection(t: MatrixTarget): string {
  const ids = findingIds(t.report, t.prefix);
  return [
    `<section class="target" id="${t.prefix}target" aria-labelledby="${t.prefix}heading">`,
    `<h2 id="${t.prefix}heading">Target ${t.number}: ${text(t.label)}</h2>`,
    verdict(t.report, ids, 3),
    findings(t.report, ids, t.prefix),
    facts(t.report, t.prefix),
    timeline(t.report, ids, t.prefix),
    plan(t.report, ids, t.prefix),
    "</section>",
  ].join("\n");
}

export function formatMatrixHtml(reports: RunReport[]): string {
  const { targets, rows } = matrixOf(reports);
  const { verdict, words } = matrixHeadline(targets);
  const heading = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  const kind = verdict === "not-judged" ? "error" : verdict;
  const summary = targets
    .map(
      (t) =>
        `<tr><td>${t.number}</td><td><a href="#${t.prefix}target">${text(t.label)}</a></td>${verdictCells(t.report)}<td>${text(runVolume(t.report))}</td><td>seed ${t.report.seed}</td></tr>`,
    )
    .join("\n");
  const differing = rows.filter((r) => r.differs).length;
  const head = targets.map((t) => `<th><a href="#${t.prefix}target">${t.number}</a></th>`).join("");
  const body = rows
    .map(
      (r) =>
        `<tr${r.differs ? ' class="differs"' : ""} data-kind="${kindOf(r.check)}"><td><code>${text(r.check)}</code><br><span class="muted">${text(r.verifies, 300)}</span></td>${r.cells.map((c, i) => cell(c, targets[i] as MatrixTarget)).join("")}</tr>`,
    )
    .join("\n");
  const main = [
    `<section class="verdict ${kind}" aria-label="verdict"><h1>${text(heading)}</h1>`,
    `<p class="muted">${plural(rows.length, "check")}, ${differing} with different results across the targets</p>`,
    `<div class="table"><table><thead><tr><th>#</th><th>target</th><th>verdict</th><th>why</th><th>requests</th><th>seed</th></tr></thead><tbody>${summary}</tbody></table></div></section>`,
    '<section aria-labelledby="matrix"><h2 id="matrix">Checks × targets</h2>',
    '<p class="muted">Each cell: the status, its evidence (informative of judged answers) and a link to the first finding. Rows whose targets disagree are marked.</p>',
    `<form class="filters" aria-label="filter the checks"><label><input type="checkbox" id="f-differs"> only the ${plural(differing, "check")} whose results differ</label></form>`,
    `<div class="table"><table class="matrix"><thead><tr><th>check</th>${head}</tr></thead><tbody>`,
    body,
    "</tbody></table></div></section>",
    ...targets.map(targetSection),
  ].join("\n");
  return page(`dealkit conformance matrix: ${heading}`, main);
}
