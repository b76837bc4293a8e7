import type { RunReport } from "../runner/report.ts";

/** The machine-readable report: every check with its id (= name), status, cases and violations. */
export function formatJson(report: RunReport): string {
  const checks = report.checks.map((c) => ({ id: c.name, ...c }));
  return `${JSON.stringify({ ...report, checks }, null, 2)}\n`;
}
