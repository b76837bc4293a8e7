import { type RuleId, ruleInfo } from "../rules.ts";
import type { DiffResult, Finding, Level } from "../types.ts";
import { acceptedCount, acceptedNote, entryNotes } from "./acceptance.ts";
import { summaryLine } from "./location.ts";

const TITLE: Record<Level, string> = { breaking: "🔴 Breaking", warning: "🟡 Warning", info: "🔵 Info" };

/**
 * A pull-request comment: verdict, summary table, then one section per level (info collapsed).
 * Findings an --accept entry covers get a section of their own, so the level sections hold what
 * is still open.
 */
export function formatMarkdown(r: DiffResult): string {
  return r.mode === "cross-major" ? migrationNotes(r) : compatibilityReport(r);
}

function compatibilityReport(r: DiffResult): string {
  const open = r.findings.filter((f) => !f.accepted);
  const accepted = r.findings.filter((f) => f.accepted);
  const out = [
    `## dealkit diff: ${verdict(r, open.filter((f) => f.level === "breaking").length)}`,
    "",
    `\`${r.base.label}\` (${r.base.version}) → \`${r.head.label}\` (${r.head.version}), same major.`,
    "",
    summaryTable(r),
  ];
  for (const level of ["breaking", "warning"] as const) {
    const fs = open.filter((f) => f.level === level);
    if (fs.length) out.push("", `### ${TITLE[level]} (${fs.length})`, "", findingTable(fs));
  }
  if (accepted.length) out.push("", `### ${ACCEPTED} (${accepted.length})`, "", findingTable(accepted));
  if (r.findings.length === 0) out.push("", "No changes.");
  const info = open.filter((f) => f.level === "info");
  if (info.length) out.push("", details(`${TITLE.info} (${info.length})`, findingTable(info)));
  out.push(...entryLines(r));
  return `${out.join("\n")}\n`;
}

const ACCEPTED = "✅ Accepted, not failing";

function verdict(r: DiffResult, breaking: number): string {
  if (breaking > 0) return `❌ ${breaking} breaking finding${breaking === 1 ? "" : "s"}`;
  if (r.acceptance?.expired.length) return "❌ an accepted change expired";
  const accepted = r.findings.filter((f) => f.accepted && f.level === "breaking").length;
  return accepted ? `✅ no open breaking change (${accepted} accepted)` : "✅ no breaking change";
}

/** The --accept entries that need a hand, below everything else. */
function entryLines(r: DiffResult): string[] {
  const { expired, unused } = entryNotes(r);
  return [...expired.map((n) => `**${cell(n)}**`), ...unused.map((n) => `<sub>${cell(n)}</sub>`)].flatMap(
    (l) => ["", l],
  );
}

function summaryTable(r: DiffResult): string {
  return [
    "| Level | Count |",
    "|---|---:|",
    `| ${TITLE.breaking} | ${r.summary.breaking} |`,
    `| ${TITLE.warning} | ${r.summary.warning} |`,
    `| ${TITLE.info} | ${r.summary.info} |`,
    ...(acceptedCount(r) ? [`| ${ACCEPTED} | ${acceptedCount(r)} |`] : []),
  ].join("\n");
}

/**
 * One row per change: a shared component (Alert, Problem) changed once is reported by every
 * operation that uses it; the comment lists those operations in one row instead of twenty. A
 * row says one thing: findings of one place whose messages differ (the same field reached as
 * `data[]` and as `body[]`) get a row each, with the operations that message is about, so no
 * list of operations stands beside a list of messages it does not line up with (and --accept
 * covering only some of them keeps accepted and open rows apart).
 */
function findingTable(fs: Finding[]): string {
  const places = groupBy(fs, (f) =>
    JSON.stringify([f.rule, f.location.pointer, f.location.in, f.location.parameter, f.accepted]),
  );
  // The rows of one place stay together, in the order the place was first met.
  const rows = places.flatMap((place) =>
    groupBy(place, (f) => f.message).map((g) => {
      const first = g[0] as Finding;
      return `| \`${first.rule}\` | ${where(g)} | ${cell(first.message)}${acceptedSuffix(first)} |`;
    }),
  );
  return ["| Rule | Where | Change |", "|---|---|---|", ...rows].join("\n");
}

/** The findings in groups of one key, in the order each key was first met. */
function groupBy(fs: Finding[], key: (f: Finding) => string): Finding[][] {
  const groups = new Map<string, Finding[]>();
  for (const f of fs) groups.set(key(f), [...(groups.get(key(f)) ?? []), f]);
  return [...groups.values()];
}

function where(g: Finding[]): string {
  const first = g[0] as Finding;
  const ops = [...new Set(g.map((f) => f.location.operation).filter((o) => o !== undefined))];
  const opList = ops.map((o) => `\`${cell(o)}\``).join("<br>");
  const pointer = `<sub>\`#${cell(first.location.pointer)}\`${first.location.in === "base" ? " (base)" : ""}</sub>`;
  return opList ? `${opList}<br>${pointer}` : pointer;
}

/** A cell suffix for an accepted finding: until when and why. */
function acceptedSuffix(f: Finding): string {
  return f.accepted ? `<br>✅ ${cell(acceptedNote(f) ?? "")}` : "";
}

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** Table-cell safe: pipes escaped, and `<Alert>` (a oneOf branch) not swallowed as an HTML tag. */
function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, " ");
}

function checksVerdict(r: DiffResult, failing: number): string {
  if (failing) return `❌ ${failing} versioning check${failing === 1 ? "" : "s"} failed.`;
  if (r.acceptance?.expired.length) return "❌ An accepted change expired.";
  const accepted = r.findings.filter((f) => !f.migration && f.accepted && f.level === "breaking").length;
  return `✅ Versioning checks passed (new prefix, 6-month rule)${accepted ? `; ${accepted} accepted` : ""}.`;
}

/** Across majors: what a client developer changes, grouped per operation, old → new. */
function migrationNotes(r: DiffResult): string {
  const checks = r.findings.filter((f) => !f.migration);
  const notes = r.findings.filter((f) => f.migration);
  const failing = checks.filter((f) => f.level === "breaking" && !f.accepted).length;
  const out = [
    `## dealkit diff: migration notes ${r.base.version} → ${r.head.version}`,
    "",
    `\`${r.base.label}\` → \`${r.head.label}\`, across majors. ${checksVerdict(r, failing)}`,
  ];
  if (checks.length) out.push("", "### Versioning checks", "", findingTable(checks));
  const rank = (fs: Finding[]) =>
    Math.min(...fs.map((f) => ["breaking", "warning", "info"].indexOf(f.migration?.impact ?? "info")));
  const perOperation = groupBy(notes, (f) => f.location.operation ?? "");
  for (const fs of perOperation.sort((a, b) => rank(a) - rank(b))) {
    const op = (fs[0] as Finding).location.operation ?? "";
    const successor = fs.find((f) => f.location.successor)?.location.successor;
    const heading = !op ? "Whole API" : successor ? `\`${op}\` → \`${successor}\`` : `\`${op}\``;
    const rows = fs.map(
      (f) =>
        `| ${TITLE[f.migration?.impact ?? "info"]} | ${cell(f.message)}${acceptedSuffix(f)} | ${cell(f.migration?.advice ?? ruleInfo(f.rule as RuleId).advice)} |`,
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
  out.push(...entryLines(r), "", `<sub>${summaryLine(r.summary)}</sub>`);
  return `${out.join("\n")}\n`;
}
