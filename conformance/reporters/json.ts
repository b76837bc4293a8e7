import type { RunReport } from "../runner/results.ts";

/** The machine-readable report: every check with id, status, cases and violations. */
export function formatJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
