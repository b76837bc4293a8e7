/** How --accept shows in the outputs: the same words in every format, so a reviewer learns them once. */
import { describeEntry } from "../../accept/list.ts";
import type { DiffResult, Finding } from "../types.ts";

/** `accepted until 2026-12-31: reason`, for a finding an --accept entry covers. */
export function acceptedNote(f: Finding): string | undefined {
  return f.accepted && `accepted until ${f.accepted.expires}: ${f.accepted.reason}`;
}

export function acceptedCount(r: DiffResult): number {
  return r.findings.filter((f) => f.accepted).length;
}

/** One line per --accept entry that needs a hand: past its date (failing), or matching nothing. */
export function entryNotes(r: DiffResult): { expired: string[]; unused: string[] } {
  return {
    expired: (r.acceptance?.expired ?? []).map(
      (e) => `accepted change expired, it fails the gate: ${describeEntry(e)}`,
    ),
    unused: (r.acceptance?.unused ?? []).map(
      (e) => `accepted change not in this diff, the entry can go: ${describeEntry(e)}`,
    ),
  };
}
