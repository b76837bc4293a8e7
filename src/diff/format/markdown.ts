import { type RuleId, ruleInfo } from "../rules.ts";
import type { DiffResult, Finding, Level } from "../types.ts";
import { summaryLine } from "./location.ts";

const TITLE: Record<Level, string> = { breaking: "🔴 Breaking", warning: "🟡 Warning", info: "🔵 Info" };

/** A pull-request comment: verdict, summary table, then one section per level (info collapsed). */
export function formatMarkdown(r: DiffResult): string {
  return r.mode === "cross-major" ? migrationNotes(r) : compatibilityReport(r);
}

function compatibilityReport(r: DiffResult): string {
  const verdict =
    r.summary.breaking > 0
      ? `❌ ${r.summary.breaking} breaking finding${r.summary.breaking === 1 ? "" : "s"}`
      : "✅ no breaking change";
  const out = [
    `## dealkit diff: ${verdict}`,
    "",
    `\`${r.base.label}\` (${r.base.version}) → \`${r.head.label}\` (${r.head.version}), same major.`,
    "",
    summaryTable(r),
  ];
  for (const level of ["breaking", "warning"] as const) {
    const fs = r.findings.filter((f) => f.level === level);
    if (fs.length) out.push("", `### ${TITLE[level]} (${fs.length})`, "", findingTable(fs));
  }
  if (r.findings.length === 0) out.push("", "No changes.");
  const info = r.findings.filter((f) => f.level === "info");
  if (info.length) out.push("", details(`${TITLE.info} (${info.length})`, findingTable(info)));
  return `${out.join("\n")}\n`;
}

function summaryTable(r: DiffResult): string {
  return [
    "| Level | Count |",
    "|---|---:|",
    `| ${TITLE.breaking} | ${r.summary.breaking} |`,
    `| ${TITLE.warning} | ${r.summary.warning} |`,
    `| ${TITLE.info} | ${r.summary.info} |`,
  ].join("\n");
}

/**
 * One row per change: a shared component (Alert, Problem) changed once is reported by every
 * operation that uses it; the comment lists those operations in one row instead of twenty.
 */
function findingTable(fs: Finding[]): string {
  const groups = new Map<string, Finding[]>();
  for (const f of fs) {
    const key = JSON.stringify([f.rule, f.location.pointer, f.location.in, f.location.parameter]);
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const rows = [...groups.values()].map((g) => {
    const first = g[0] as Finding;
    const messages = [...new Set(g.map((f) => f.message))];
    const shown =
      messages.slice(0, 3).map(cell).join("<br>") +
      (messages.length > 3 ? `<br>… ${messages.length - 3} more` : "");
    return `| \`${first.rule}\` | ${where(g)} | ${shown} |`;
  });
  return ["| Rule | Where | Change |", "|---|---|---|", ...rows].join("\n");
}

function where(g: Finding[]): string {
  const first = g[0] as Finding;
  const ops = [...new Set(g.map((f) => f.location.operation).filter((o) => o !== undefined))];
  const opList = ops.map((o) => `\`${cell(o)}\``).join("<br>");
  const pointer = `<sub>\`#${cell(first.location.pointer)}\`${first.location.in === "base" ? " (base)" : ""}</sub>`;
  return opList ? `${opList}<br>${pointer}` : pointer;
}

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** Table-cell safe: pipes escaped, and `<Alert>` (a oneOf branch) not swallowed as an HTML tag. */
function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, " ");
}

/** Across majors: what a client developer changes, grouped per operation, old → new. */
function migrationNotes(r: DiffResult): string {
  const checks = r.findings.filter((f) => !f.migration);
  const notes = r.findings.filter((f) => f.migration);
  const failing = checks.filter((f) => f.level === "breaking").length;
  const out = [
    `## dealkit diff: migration notes ${r.base.version} → ${r.head.version}`,
    "",
    `\`${r.base.label}\` → \`${r.head.label}\`, across majors. ${failing ? `❌ ${failing} versioning check${failing === 1 ? "" : "s"} failed.` : "✅ Versioning checks passed (new prefix, 6-month rule)."}`,
  ];
  if (checks.length) out.push("", "### Versioning checks", "", findingTable(checks));
  const groups = new Map<string, Finding[]>();
  for (const f of notes) {
    const key = f.location.operation ?? "";
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const rank = (fs: Finding[]) =>
    Math.min(...fs.map((f) => ["breaking", "warning", "info"].indexOf(f.migration?.impact ?? "info")));
  for (const [op, fs] of [...groups].sort((a, b) => rank(a[1]) - rank(b[1]))) {
    const successor = fs.find((f) => f.location.successor)?.location.successor;
    const heading = !op ? "Whole API" : successor ? `\`${op}\` → \`${successor}\`` : `\`${op}\``;
    const rows = fs.map(
      (f) =>
        `| ${TITLE[f.migration?.impact ?? "info"]} | ${cell(f.message)} | ${cell(f.migration?.advice ?? ruleInfo(f.rule as RuleId).advice)} |`,
    );
    const table = ["| Impact | Change (old → new) | What to change |", "|---|---|---|", ...rows].join("\n");
    const needsWork = fs.some((f) => f.migration?.impact !== "info");
    out.push(
      "",
      needsWork
        ? `### ${heading}\n\n${table}`
        : details(`${heading}: nothing to change (${fs.length})`, table),
    );
  }
  out.push("", `<sub>${summaryLine(r.summary)}</sub>`);
  return `${out.join("\n")}\n`;
}
