import type { DiffResult } from "../types.ts";
import { acceptedCount, acceptedNote, entryNotes } from "./acceptance.ts";
import { describeLocation, summaryLine } from "./location.ts";

/**
 * One line per finding, `LEVEL rule-id location: message`, an accepted one ending in
 * `[accepted until DATE: reason]`; then the --accept entries that need a hand; then the summary
 * line `N breaking, N warnings, N info` with nothing after it, for scripts.
 */
export function formatText(r: DiffResult): string {
  const lines = r.findings.map((f) => {
    const impact = f.migration ? ` [was ${f.migration.impact}]` : "";
    const accepted = f.accepted ? ` [${acceptedNote(f)}]` : "";
    return `${f.level.toUpperCase()} ${f.rule} ${describeLocation(f)}: ${f.message}${impact}${accepted}`;
  });
  const { expired, unused } = entryNotes(r);
  lines.push(...expired, ...unused);
  const accepted = acceptedCount(r);
  if (accepted > 0) lines.push(`${accepted} accepted (--accept): shown, not failing`);
  lines.push(summaryLine(r.summary));
  return lines.join("\n");
}
