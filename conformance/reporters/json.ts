import type { RunReport } from "../runner/report.ts";
import { withVerdict } from "./verdict.ts";

/**
 * The machine-readable report: the verdict (and why an incomplete run is incomplete), every check
 * with its id (= name), status, cases and violations. A report read back from before verdicts
 * existed is written with the verdict its checks give.
 */
export function formatJson(input: RunReport): string {
  const report = withVerdict(input);
  const checks = report.checks.map((c) => ({ id: c.name, ...c }));
  return `${JSON.stringify({ ...report, checks }, null, 2)}\n`;
}
