import type { DiffResult, Finding } from "../types.ts";
import { lineMapper } from "../yaml-lines.ts";
import { acceptedCount, acceptedNote, entryNotes } from "./acceptance.ts";
import { summaryLine } from "./location.ts";

const COMMAND = { breaking: "error", warning: "warning", info: "notice" } as const;

export interface GithubSource {
  /** Repository-relative path of the head document, for `file=`. */
  path: string;
  /** The head document's text, to map pointers to lines. */
  text: string;
}

/**
 * GitHub Actions workflow commands: `::error file=…,line=…,title=rule-id::message`. Lines come
 * from the head document; a removal is annotated at its nearest surviving ancestor there. An
 * accepted finding is a `::notice` (a reviewed change should not paint the pull request red), an
 * expired --accept entry an `::error` of its own.
 */
export function formatGithub(r: DiffResult, source?: GithubSource): string {
  const line = source ? lineMapper(source.text) : undefined;
  const lines = r.findings.map((f) => {
    const props = [`title=${escapeProperty(f.accepted ? `${f.rule} (accepted)` : f.rule)}`];
    if (source && line) {
      const n = line(f.location.pointer);
      props.unshift(`file=${escapeProperty(source.path)}`, ...(n ? [`line=${n}`] : []));
    }
    const command = f.accepted ? "notice" : COMMAND[f.level];
    return `::${command} ${props.join(",")}::${escapeData(message(f))}`;
  });
  const { expired, unused } = entryNotes(r);
  lines.push(
    ...expired.map((n) => `::error title=dealkit diff --accept::${escapeData(n)}`),
    ...unused.map((n) => `::notice title=dealkit diff --accept::${escapeData(n)}`),
  );
  const accepted = acceptedCount(r) ? `, ${acceptedCount(r)} accepted` : "";
  lines.push(
    `::notice title=dealkit diff::${summaryLine(r.summary)}${accepted} (${r.mode}: ${r.base.version} → ${r.head.version})`,
  );
  return lines.join("\n");
}

function message(f: Finding): string {
  const where = [f.location.operation, f.location.parameter && `(${f.location.parameter})`]
    .filter(Boolean)
    .join(" ");
  const impact = f.migration ? ` [was ${f.migration.impact}; ${f.migration.advice}]` : "";
  const accepted = f.accepted ? ` [${acceptedNote(f)}]` : "";
  return `${where ? `${where}: ` : ""}${f.message}${impact}${accepted}`;
}

// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
