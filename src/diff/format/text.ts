import type { DiffResult } from "../types.ts";
import { describeLocation, summaryLine } from "./location.ts";

/**
 * One line per finding, `LEVEL rule-id location: message`, then the summary line
 * `N breaking, N warnings, N info` with nothing after it, for scripts.
 */
export function formatText(r: DiffResult): string {
  const lines = r.findings.map((f) => {
    const impact = f.migration ? ` [was ${f.migration.impact}]` : "";
    return `${f.level.toUpperCase()} ${f.rule} ${describeLocation(f)}: ${f.message}${impact}`;
  });
  lines.push(summaryLine(r.summary));
  return lines.join("\n");
}
