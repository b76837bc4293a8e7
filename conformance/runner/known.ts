import { type AcceptEntry, describeEntry } from "../../src/accept/list.ts";
import type { Violation } from "../types.ts";

/**
 * Whether a --known entry accepts a finding: it names the check, and optionally the operation and
 * the violation code. The run's own checks (run.ts) and the ledger's (ledger/report.ts) match alike.
 */
export const knownMatches = (e: AcceptEntry, v: Violation): boolean =>
  e.match.check === v.check &&
  (e.match.operation === undefined || e.match.operation === v.operation) &&
  (e.match.code === undefined || e.match.code === v.code);

/** A check's note on the findings --known accepted (shown, not failing). */
export const acceptedNote = (count: number): string => `${count} known finding(s), accepted (--known)`;

/** The run's note on an entry that matched nothing: it can go. */
export const unusedNote = (e: AcceptEntry): string =>
  `known finding not seen in this run (the entry can go): ${describeEntry(e)}`;
