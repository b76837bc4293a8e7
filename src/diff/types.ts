/** The data the diff returns: findings, not text. Formatters and the CLI decide how to show them. */
import type { AcceptEntry } from "../accept/list.ts";

export type Level = "breaking" | "warning" | "info";

export const LEVELS: readonly Level[] = ["breaking", "warning", "info"];

export interface Location {
  /** `GET /api/v1/rank`: the operation the change affects, when there is one. */
  operation?: string;
  /** The same operation in head, when it lives at another path (across majors: /api/v2/...). */
  successor?: string;
  /** `query limit`: the request parameter, when the change is on one. */
  parameter?: string;
  /** RFC 6901 pointer into the document as written ($refs not followed at the last step). */
  pointer: string;
  /** Which document the pointer is into: head, unless the thing exists only in base (a removal). */
  in: "base" | "head";
}

export interface Finding {
  rule: string;
  level: Level;
  location: Location;
  message: string;
  /** Across majors only: the compatibility impact the change would have had, and what a client does about it. */
  migration?: { impact: Level; advice: string };
  /** Set when an --accept entry covers the finding: still shown, but it does not fail the gate. */
  accepted?: { reason: string; expires: string };
}

export type Mode = "same-major" | "cross-major";

export interface Summary {
  breaking: number;
  warning: number;
  info: number;
}

export interface DiffResult {
  mode: Mode;
  base: { label: string; version: string };
  head: { label: string; version: string };
  findings: Finding[];
  /** Every finding, accepted or not: the summary says what changed, the gate what is still open. */
  summary: Summary;
  /** Present when an --accept list was applied (accept.ts). */
  acceptance?: Acceptance;
}

/** What an --accept list did besides marking findings. */
export interface Acceptance {
  /** Entries past their date: they fail the gate whatever they match, so the list cannot rot. */
  expired: AcceptEntry[];
  /** Unexpired entries no finding matched: they can go. */
  unused: AcceptEntry[];
}

export interface DiffOptions {
  /** The day the check runs, YYYY-MM-DD (UTC); tests pin it, the CLI uses today. */
  today?: string;
  /** The successor major's publication date, YYYY-MM-DD, when neither document states it. */
  successorPublished?: string;
}
