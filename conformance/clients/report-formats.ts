/**
 * The client report as json, markdown, html and junit: the same verdicts, findings, evidence and
 * variation outcomes in each, the HTML escaped through the reporters' one escaping function.
 */
import { text } from "../reporters/html-escape.ts";
import { esc as xml } from "../reporters/junit.ts";
import { evidenceLine, findingLine, outcomeLine } from "./report-text.ts";
import type { ClientReport, ClientsReport } from "./types.ts";

function formatJson(report: ClientsReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function markdownClient(c: ClientReport): string[] {
  const agents = c.userAgents.length ? ` (${c.userAgents.join("; ")})` : "";
  const lines = [
    `## ${c.client}${agents}: ${c.verdict}`,
    "",
    `${c.requests} requests, ${c.first} to ${c.last}.`,
    "",
  ];
  for (const f of c.findings) {
    lines.push(`- **${f.rule}**: ${f.message}`);
    for (const e of f.evidence) lines.push(`  - \`${evidenceLine(e)}\``);
    for (const i of f.includes ?? []) lines.push(`  - includes: ${i}`);
  }
  if (c.variations.length) {
    lines.push("", "Variations received and what came next:", "");
    for (const v of c.variations) lines.push(`- ${outcomeLine(v)}`);
  }
  for (const n of c.notJudged) lines.push(`- not judged: ${n.rule}: ${n.reason}`);
  return [...lines, ""];
}

function formatMarkdown(report: ClientsReport): string {
  const head = [`# Clients: ${report.headline}`, "", `${report.observed} exchanges observed.`, ""];
  if (report.untracked)
    head.push(`${report.untracked} more clients seen but not judged (the judge's bound).`, "");
  return `${[...head, ...report.clients.flatMap(markdownClient)].join("\n")}\n`;
}

function htmlClient(c: ClientReport): string {
  const findings = c.findings
    .map(
      (f) =>
        `<li><b>${text(f.rule)}</b>: ${text(f.message)}<ul>${f.evidence.map((e) => `<li><code>${text(evidenceLine(e))}</code></li>`).join("")}${(f.includes ?? []).map((i) => `<li>includes: ${text(i)}</li>`).join("")}</ul></li>`,
    )
    .join("");
  const variations = c.variations.map((v) => `<li>${text(outcomeLine(v))}</li>`).join("");
  return `<section><h2>${text(c.client)} <small>${text(c.userAgents.join("; "))}</small>: ${text(c.verdict)}</h2><p>${c.requests} requests, ${text(c.first)} to ${text(c.last)}.</p><ul>${findings}</ul>${variations ? `<h3>Variations received and what came next</h3><ul>${variations}</ul>` : ""}</section>`;
}

function formatHtml(report: ClientsReport): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>dealkit clients: ${text(report.verdict)}</title></head><body><h1>Clients: ${text(report.headline)}</h1><p>${report.observed} exchanges observed.</p>${report.clients.map(htmlClient).join("")}</body></html>\n`;
}

/** One testsuite per client, one testcase per rule: a finding is a failure, with its evidence. */
function formatJunit(report: ClientsReport): string {
  const suites = report.clients.map((c) => {
    const cases = report.rules.map((r) => {
      const f = c.findings.find((x) => x.rule === r.id);
      const failure = f
        ? `<failure message="${xml(findingLine(f))}" type="${xml(r.id)}">${xml(f.evidence.map(evidenceLine).join("\n"))}</failure>`
        : "";
      return `    <testcase classname="clients.${xml(c.client)}" name="${xml(r.id)}">${failure}</testcase>`;
    });
    const failures = c.findings.length;
    return `  <testsuite name="client ${xml(c.client)}" tests="${report.rules.length}" failures="${failures}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dealkit clients">\n${suites.join("\n")}\n</testsuites>\n`;
}

export const CLIENT_REPORT_FORMATS = {
  json: formatJson,
  markdown: formatMarkdown,
  html: formatHtml,
  junit: formatJunit,
};

export type ClientReportFormat = keyof typeof CLIENT_REPORT_FORMATS;
