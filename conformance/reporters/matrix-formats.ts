/**
 * The report files of several targets (`--base-url A --base-url B`, `dealkit report A.json B.json`):
 * the HTML and Markdown matrices, a JSON file holding every target's report (what `dealkit
 * report` reads back), and JUnit with one testsuite a target.
 */
import type { RunReport } from "../runner/report.ts";
import { formatJson } from "./json.ts";
import { formatJunit } from "./junit.ts";
import { formatMatrixHtml } from "./matrix-html.ts";
import { formatMatrixMarkdown } from "./matrix-markdown.ts";

/** Every target's report, as `--report json` writes one, under `targets`. */
export function formatMatrixJson(reports: RunReport[]): string {
  const targets = reports.map((r) => JSON.parse(formatJson(r)) as unknown);
  return `${JSON.stringify({ targets }, null, 2)}\n`;
}

const COUNTS = ["tests", "failures", "skipped", "errors"] as const;

/** One <testsuites> holding each target's <testsuite>, with the counts summed. */
export function formatMatrixJunit(reports: RunReport[]): string {
  const totals = Object.fromEntries(COUNTS.map((k) => [k, 0])) as Record<(typeof COUNTS)[number], number>;
  let time = 0;
  const suites: string[] = [];
  for (const r of reports) {
    const lines = formatJunit(r).split("\n");
    const open = lines.findIndex((l) => l.startsWith("  <testsuite "));
    const close = lines.lastIndexOf("  </testsuite>");
    const head = lines[open] ?? "";
    for (const k of COUNTS) totals[k] += Number(new RegExp(` ${k}="(\\d+)"`).exec(head)?.[1] ?? 0);
    time += r.durationMs / 1000;
    suites.push(...lines.slice(open, close + 1));
  }
  const counts = COUNTS.map((k) => `${k}="${totals[k]}"`).join(" ");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="dealkit conformance" ${counts} time="${time.toFixed(3)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

export const MATRIX_FORMATS = {
  junit: formatMatrixJunit,
  json: formatMatrixJson,
  markdown: formatMatrixMarkdown,
  html: formatMatrixHtml,
};
