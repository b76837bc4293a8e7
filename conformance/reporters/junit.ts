import type { Cause } from "../runner/causes.ts";
import type { CheckResult, RunReport } from "../runner/report.ts";
import { explainsWords, severityTag, toConfirm } from "./cause-words.ts";
import { asShown, headline } from "./verdict.ts";

/** XML 1.0 cannot carry most control characters at all, escaped or not: they become U+FFFD. */
function xmlSafe(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    out +=
      (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff ? "\uFFFD" : ch;
  }
  return out;
}

export const esc = (s: string) =>
  xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Whether a check counts as failed in CI: a violation, or no evidence under --require-evidence. */
const failing = (c: CheckResult, report: RunReport) =>
  c.status === "fail" || (c.status === "not-exercised" && report.requireEvidence);

function testcase(c: CheckResult, report: RunReport): string[] {
  const lines = [`    <testcase classname="conformance" name="${esc(c.name)}">`];
  if (c.status === "fail") {
    const body = c.violations
      .map(
        (v) =>
          `${v.operation}: ${v.title}\nReceived: ${JSON.stringify(v.received)}\nDocumented: ${JSON.stringify(v.documented)}\n${v.request}\nReplay: ${v.replay}${v.reproduce ? `\nReproduce:\n${v.reproduce}` : ""}`,
      )
      .join("\n\n");
    const first = c.violations[0]?.title ?? c.title;
    const cause = report.causes.find((x) => x.id === c.violations[0]?.cause);
    const message = cause ? `${first} (root cause: ${cause.title})` : first;
    lines.push(`      <failure message="${esc(message)}" type="${esc(c.name)}">${esc(body)}</failure>`);
  } else if (c.status === "not-exercised") {
    const message = `not exercised: ${c.reason ?? "no evidence"}`;
    lines.push(
      failing(c, report)
        ? `      <failure message="${esc(message)}" type="not-exercised">${esc(`${c.cases} answers judged, ${c.informative} could show a violation; --require-evidence fails a check without evidence`)}</failure>`
        : `      <skipped message="${esc(message)}"/>`,
    );
  } else if (c.status === "skipped") {
    lines.push(`      <skipped message="${esc(c.reason ?? "skipped")}"/>`);
  } else {
    const known = c.violations.map(
      (v) => `\nknown (until ${v.known?.expires}: ${v.known?.reason}): ${v.title}`,
    );
    lines.push(
      `      <system-out>${esc(`${c.informative} of ${c.cases} cases could show a violation${c.note ? `; ${c.note}` : ""}${known.join("")}`)}</system-out>`,
    );
  }
  lines.push("    </testcase>");
  return lines;
}

/** A cause's case text: what it explains, its evidence, what would confirm it, then what follows from it, indented. */
function causeText(c: Cause, indent = ""): string[] {
  const confirm = toConfirm(c);
  return [
    `${indent}${explainsWords(c)}`,
    ...c.evidence.map((e) => `${indent}${e}`),
    ...(confirm ? [`${indent}to confirm: ${confirm}`] : []),
    ...(c.follows ?? []).flatMap((f) => [
      `${indent}follows from it: [${severityTag(f)}] ${f.title}`,
      ...causeText(f, `${indent}  `),
    ]),
  ];
}

/** A passive run's counts: exchanges seen and judged (it sent no request). */
function passiveProperties(report: RunReport): string {
  if (!report.passive) return "";
  const { exchanges, judged, findings } = report.passive;
  return `<property name="exchanges" value="${exchanges}"/><property name="judged" value="${judged}"/><property name="findings" value="${findings}"/>`;
}

/**
 * An incomplete run as a failing testcase of its own. Its checks not judged are <skipped>, and a
 * test viewer shows a suite of passes and skips green: this case is what turns it red, its
 * message the headline (the run's own reason first), its body every reason. A run with an error
 * testcase (not judged, stopped) is red already and says why there.
 */
function verdictCase(report: RunReport): string[] {
  if (report.verdict !== "incomplete" || report.error || report.stopped) return [];
  const { words, reasons } = headline(report);
  return [
    `    <testcase classname="conformance" name="verdict">`,
    `      <failure message="${esc(`verdict: ${words}`)}" type="incomplete">${esc(reasons.join("\n"))}</failure>`,
    "    </testcase>",
  ];
}

/** JUnit XML: one testsuite, one testcase per check; a run that stopped (exit 2) is one error. */
export function formatJunit(input: RunReport): string {
  const report = asShown(input);
  const ownCase = verdictCase(report);
  const own = ownCase.length > 0 ? 1 : 0;
  const failures = report.checks.filter((c) => failing(c, report)).length + report.causes.length + own;
  const skipped = report.checks.filter((c) => !failing(c, report) && c.status !== "pass").length;
  // Expired --known entries fail the run without failing a check: each is an error of its own.
  const expired = report.expiredKnown ?? [];
  const errors = (report.error || report.stopped ? 1 : 0) + expired.length;
  const tests = report.checks.length + report.causes.length + errors + own;
  const time = (report.durationMs / 1000).toFixed(3);
  const counts = `tests="${tests}" failures="${failures}" skipped="${skipped}" errors="${errors}" time="${time}"`;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="dealkit conformance" ${counts}>`,
    `  <testsuite name="dealkit conformance ${esc(report.baseUrl)}" ${counts} timestamp="${report.startedAt}">`,
    `    <properties><property name="seed" value="${report.seed}"/><property name="requests" value="${report.requests}"/><property name="mode" value="${report.mode}"/><property name="verdict" value="${report.verdict}"/>${passiveProperties(report)}</properties>`,
    ...ownCase,
  ];
  const runError = report.error ?? report.stopped;
  if (runError) {
    lines.push(
      `    <testcase classname="conformance" name="run">`,
      `      <error message="${esc(runError)}"/>`,
      "    </testcase>",
    );
  }
  for (const entry of expired) {
    lines.push(
      `    <testcase classname="conformance" name="known-finding-expired">`,
      `      <error message="${esc(`known finding expired: ${entry}`)}"/>`,
      "    </testcase>",
    );
  }
  // Root causes first, each a failing case of its own (what follows from one is in its text): what a CI page shows at the top.
  for (const c of report.causes) {
    lines.push(
      `    <testcase classname="conformance.cause" name="${esc(`cause: ${c.id}`)}">`,
      `      <failure message="${esc(`[${severityTag(c)}] ${c.title}`)}" type="cause">${esc(causeText(c).join("\n"))}</failure>`,
      "    </testcase>",
    );
  }
  for (const c of report.checks) lines.push(...testcase(c, report));
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}
