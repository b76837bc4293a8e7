import type { RunReport } from "../runner/results.ts";

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

const esc = (s: string) =>
  xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** JUnit XML: one testsuite, one testcase per check (failure per violation list, skipped with its reason). */
export function formatJunit(report: RunReport): string {
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const skipped = report.checks.filter((c) => c.status === "skipped").length;
  const time = (report.durationMs / 1000).toFixed(3);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="dealkit conformance" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="dealkit conformance ${esc(report.baseUrl)}" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${time}" timestamp="${report.startedAt}">`,
    `    <properties><property name="seed" value="${report.seed}"/><property name="requests" value="${report.requests}"/></properties>`,
  ];
  for (const c of report.checks) {
    lines.push(`    <testcase classname="conformance" name="${esc(c.name)}">`);
    if (c.status === "fail") {
      const body = c.violations
        .map(
          (v) =>
            `${v.operation}: ${v.title}\nReceived: ${JSON.stringify(v.received)}\nDocumented: ${JSON.stringify(v.documented)}\n${v.request}\nReplay: ${v.replay}`,
        )
        .join("\n\n");
      const first = c.violations[0]?.title ?? c.title;
      lines.push(`      <failure message="${esc(first)}" type="${esc(c.name)}">${esc(body)}</failure>`);
    } else if (c.status === "skipped") {
      lines.push(`      <skipped message="${esc(c.note ?? "skipped")}"/>`);
    } else if (c.note) {
      lines.push(`      <system-out>${esc(c.note)}</system-out>`);
    }
    lines.push("    </testcase>");
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}
