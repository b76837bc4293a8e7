import type { Cause } from "../runner/causes.ts";
import type { CheckResult, RunReport } from "../runner/report.ts";
import { causesHeading, explainsWords, toConfirm } from "./cause-words.ts";
import { inPart, runVolume } from "./console.ts";
import { asShown, headline } from "./verdict.ts";

const MODES: Partial<Record<RunReport["mode"], string>> = {
  "one-address": "one client address",
  spread: "spread over loopback addresses",
};

/** A table cell: one line, no pipe breaking the row. */
const cell = (s: string) => s.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");

export const VERDICT_ICONS: Record<RunReport["verdict"], string> = {
  passed: "✅",
  failed: "❌",
  incomplete: "🟡",
  "not-judged": "⚠️",
};

/** The headline, then what it rests on: the error of a run that judged nothing, the stop of a run cut short. */
function verdict(report: RunReport): string {
  const icon = report.stopped ? "⏹️" : VERDICT_ICONS[report.verdict];
  const lines = [`## ${icon} dealkit conformance: ${headline(report).words}`];
  if (report.error) lines.push("", report.error);
  if (report.stopped) lines.push("", "What was received is judged below; the rest is not exercised.");
  return lines.join("\n");
}

/**
 * Why the run is incomplete (or failed under --require-evidence): its own reason first, then each
 * check's. A passive run judges only the traffic it saw: its checks nothing exercised are listed
 * as such, no gap in its verdict.
 */
function notJudged(report: RunReport): string[] {
  if (report.error) return [];
  const reasons = headline(report).reasons;
  if (reasons.length > 0) return ["", "### Not judged", "", ...reasons.map((r) => `- ${cell(r)}`)];
  const unexercised = report.checks.filter((c) => c.status === "not-exercised");
  if (unexercised.length === 0) return [];
  return [
    "",
    "### Not exercised",
    "",
    ...unexercised.map((c) => `- \`${c.name}\`: ${c.reason ?? "no evidence"}`),
  ];
}

/**
 * One root cause as a list item: its headline (a hypothesis in italics, said to be one), what it
 * explains, its evidence and what would confirm it, then what follows from it as a nested list (↳).
 */
function causeItems(c: Cause, indent = "", mark = ""): string[] {
  const under = `${indent}  `;
  // A title's own * and _ (RateLimit-*) would end its emphasis early.
  const words = `[${c.severity}] ${cell(c.title).replace(/[*_]/g, "\\$&")}`;
  const title = c.likely ? `*${words}* *(hypothesis)*` : `**${words}**`;
  const confirm = toConfirm(c);
  return [
    `${indent}- ${mark}${title}: ${explainsWords(c, (x) => `\`${x}\``)}`,
    ...c.evidence.map((e) => `${under}- ${cell(e)}`),
    ...(confirm ? [`${under}- *to confirm:* ${cell(confirm)}`] : []),
    ...(c.follows ?? []).flatMap((f) => causeItems(f, under, "↳ ")),
  ];
}

/** The root causes first, in their order: severity, what each explains, its evidence, what follows from it. */
function causes(report: RunReport): string[] {
  if (report.causes.length === 0) return [];
  return ["", `### ${causesHeading(report.causes)}`, "", ...report.causes.flatMap((c) => causeItems(c))];
}

function failures(report: RunReport): string[] {
  const violations = report.checks.flatMap((c) => c.violations.filter((v) => !v.known));
  if (violations.length === 0) return [];
  const causeOf = (id?: string) => {
    const at = report.causes.findIndex((c) => c.id === id);
    return at < 0 ? "" : `root cause ${at + 1}${report.causes[at]?.likely ? " (hypothesis)" : ""}`;
  };
  const lines = [
    "",
    "### Failures",
    "",
    "| check | operation | what was wrong | cause |",
    "|---|---|---|---|",
  ];
  for (const v of violations)
    lines.push(`| \`${v.check}\` | ${v.operation} | ${cell(v.title)} | ${causeOf(v.cause)} |`);
  lines.push("", "<details><summary>Reproduce</summary>", "");
  for (const v of violations) {
    lines.push(
      `**${v.check}** (${v.operation})`,
      "",
      "```sh",
      v.reproduce ?? v.request,
      `# ${v.replay}`,
      "```",
      "",
    );
  }
  lines.push("</details>");
  return lines;
}

/**
 * The report as Markdown for a CI job summary or a pull-request comment, read in ten seconds:
 * the verdict, what the run was, every failure with its curl line, the checks not exercised and why.
 */
export function formatMarkdown(input: RunReport): string {
  const report = asShown(input);
  const count = (status: CheckResult["status"]) => report.checks.filter((c) => c.status === status).length;
  const lines = [
    verdict(report),
    "",
    `\`${report.baseUrl}\` · ${report.mode === "passive" ? "passive (traffic judged as it passed)" : `seed ${report.seed} · ${MODES[report.mode] ?? "no run"}`} · ` +
      `${runVolume(report)} in ${(report.durationMs / 1000).toFixed(0)} s · ${report.checks.length} checks: ` +
      `${count("pass")} passed${inPart(report)}, ${count("fail")} failed, ${count("not-exercised")} not exercised, ${count("skipped")} not selected`,
    // An incomplete run's reasons right under its headline; a failed run's after its failures.
    ...(report.verdict === "incomplete" ? notJudged(report) : []),
    ...causes(report),
    ...failures(report),
    ...(report.verdict === "incomplete" ? [] : notJudged(report)),
  ];
  const known = report.checks.flatMap((c) => c.violations.filter((v) => v.known));
  if (known.length > 0) {
    lines.push("", "### Known findings (accepted, not failing)", "");
    for (const v of known)
      lines.push(
        `- \`${v.check}\` ${v.operation}: ${cell(v.title)} (until ${v.known?.expires}: ${v.known?.reason})`,
      );
  }
  for (const e of report.expiredKnown ?? [])
    lines.push("", `**Expired known finding (fails the run):** ${e}`);
  if (report.notes.length > 0) {
    lines.push("", "### Notes", "");
    for (const n of report.notes) lines.push(`- ${n}`);
  }
  return `${lines.join("\n")}\n`;
}
