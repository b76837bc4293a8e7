import type { Cause } from "../runner/causes.ts";
import type { CheckResult, RunReport } from "../runner/report.ts";
import { causesHeading, explainedWords, explainsWords, severityTag, toConfirm } from "./cause-words.ts";
import { asShown, headline } from "./verdict.ts";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const STATUS: Record<CheckResult["status"], string> = {
  pass: "pass",
  fail: "FAIL",
  "not-exercised": "not exercised",
  skipped: "skipped",
};

/** ", 2 of them in part": passes that left parts unexercised are counted apart, never folded in. */
export function inPart(report: RunReport): string {
  const n = report.checks.filter((c) => c.inPart).length;
  return n > 0 ? ` (${n} of them in part)` : "";
}

function table(checks: CheckResult[]): string[] {
  const width = Math.max(5, ...checks.map((c) => c.name.length));
  const lines = [`${"check".padEnd(width)}  ${"status".padEnd(13)}  cases  evidence  note`];
  for (const c of checks) {
    const status =
      c.status === "fail" ? `FAIL(${c.violations.length})` : c.inPart ? "pass, in part" : STATUS[c.status];
    lines.push(
      `${c.name.padEnd(width)}  ${status.padEnd(13)}  ${String(c.cases).padStart(5)}  ${String(c.informative).padStart(8)}  ${c.reason ?? c.note ?? ""}`,
    );
  }
  return lines;
}

/**
 * One root cause: its headline (✗ established, ? a hypothesis), what it explains, its evidence,
 * what would confirm it, then what follows from it, indented under it (↳).
 */
function causeLines(c: Cause, indent = "", mark = c.likely ? "?" : "✗"): string[] {
  const under = `${indent}    `;
  const confirm = toConfirm(c);
  return [
    `${indent}${mark} [${severityTag(c)}] ${c.title}`,
    `${under}${explainsWords(c)}`,
    ...c.evidence.map((e) => `${under}evidence: ${clip(e, 300)}`),
    ...(confirm ? [`${under}to confirm: ${clip(confirm, 300)}`] : []),
    ...(c.follows ?? []).flatMap((f) => causeLines(f, under, "↳")),
  ];
}

/** The root causes in their order (findings explained, then severity), under one headline. */
function causesSection(report: RunReport): string[] {
  if (report.causes.length === 0) return [];
  return [
    "",
    `${causesHeading(report.causes)} (${explainedWords(report.causes)}):`,
    ...report.causes.flatMap((c) => causeLines(c)),
  ];
}

/** What the run did: requests it sent, or (passive) exchanges it saw pass. */
export function runVolume(report: RunReport): string {
  if (report.mode !== "passive") return `${report.requests} requests`;
  const judged = report.passive ? `, ${report.passive.judged} judged` : "";
  return `${report.requests} exchanges seen${judged}, no request sent`;
}

/** The end-of-run text: the check table, then every violation with its reproduction. */
export function formatConsole(input: RunReport): string {
  const report = asShown(input);
  // A run that stopped before judging (not this API, unreachable) has one thing to say.
  if (report.error) {
    return `\n${runVolume(report)} in ${(report.durationMs / 1000).toFixed(1)} s; seed ${report.seed}; nothing judged\nverdict: ${headline(report).words}: ${report.error}`;
  }
  const kindOf = (name: string) =>
    name.startsWith("rule:") ? "rule" : name.startsWith("relation:") ? "relation" : "fixed";
  const count = (status: CheckResult["status"], kind?: string) =>
    report.checks.filter((c) => c.status === status && (kind === undefined || kindOf(c.name) === kind))
      .length;
  // Root causes first; checks --only/--skip left out are counted below, not listed.
  const lines = [
    ...causesSection(report),
    "",
    ...table(report.checks.filter((c) => c.status !== "skipped")),
    "",
  ];
  const known = report.checks.flatMap((c) => c.violations.filter((v) => v.known));
  for (const v of known) {
    lines.push(
      `~ ${v.check} [known until ${v.known?.expires}: ${v.known?.reason}] ${v.operation}: ${v.title}`,
    );
  }
  if (known.length > 0) lines.push("");
  // The rows, under the cause that explains them (in the causes' order), then the rest.
  const open = report.checks
    .filter((x) => x.status === "fail")
    .flatMap((c) => c.violations.filter((x) => !x.known));
  const groups = [
    ...report.causes.map((c) => ({ heading: `── ${c.title}`, rows: open.filter((v) => v.cause === c.id) })),
    { heading: report.causes.length ? "── other findings" : undefined, rows: open.filter((v) => !v.cause) },
  ];
  for (const { heading, rows } of groups.filter((g) => g.rows.length > 0)) {
    if (heading) lines.push(heading, "");
    for (const v of rows) {
      lines.push(`✗ ${v.check} [${v.severity}] ${v.operation}: ${v.title}`);
      lines.push(`    Received:   ${clip(show(v.received), 300)}`);
      lines.push(`    Documented: ${clip(show(v.documented), 300)}`);
      lines.push(`    Request:    ${v.request}`);
      lines.push(`    Replay:     ${v.replay}`);
      if (v.reproduce) lines.push(`    Reproduce:  ${v.reproduce.split("\n").join("\n                ")}`);
      lines.push("");
    }
  }
  for (const n of report.notes) lines.push(`note: ${n}`);
  if (report.stopped)
    lines.push(`stopped: ${report.stopped}; what was received is judged, the rest not exercised`);
  // A plain mock passes the schema-level checks and fails the rule-level ones: say which kind failed.
  const group = (kind: string) =>
    `${count("pass", kind)} passed, ${count("fail", kind)} failed, ${count("not-exercised", kind)} not exercised, ${count("skipped", kind)} skipped`;
  lines.push(`schema/protocol-level checks: ${group("fixed")}`);
  lines.push(`rule-level checks (x-conformance): ${group("rule")}`);
  lines.push(`relations between answers (x-relations): ${group("relation")}`);
  const unexercised = count("not-exercised");
  const expired = report.expiredKnown?.length ?? 0;
  lines.push(
    `${count("pass")} passed${inPart(report)}, ${count("fail")} failed, ${unexercised} not exercised${report.requireEvidence && unexercised ? " (failing: --require-evidence)" : ""}, ${count("skipped")} skipped; ` +
      (known.length ? `${known.length} known findings; ` : "") +
      (expired ? `${expired} known entries expired (failing); ` : "") +
      `${runVolume(report)} in ${(report.durationMs / 1000).toFixed(1)} s${report.mode === "passive" ? "" : `; seed ${report.seed}`}`,
  );
  // The last line, what a CI log is read for: the verdict, an incomplete run's own reason first.
  lines.push(`verdict: ${headline(report).words}`);
  return lines.join("\n");
}
