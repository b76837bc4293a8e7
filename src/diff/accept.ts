/**
 * Accepted changes (`dealkit diff --accept FILE`): reviewed findings a team lands anyway, each
 * with a reason and the last day it holds. Reading, dating and sorting are src/accept/list.ts,
 * shared with conformance's --known; this module says what a diff entry names and matches.
 */
import { type AcceptEntry, AcceptListError, applyAcceptList, readAcceptList } from "../accept/list.ts";
import { RULE_IDS } from "./rules.ts";
import type { DiffResult, Finding } from "./types.ts";

/** Fields an --accept entry matches on, besides its reason and expires. */
export const ACCEPT_KEYS = ["rule", "location", "message"] as const;

const OPERATION = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) \//;

/**
 * Reads an --accept file and checks what the shared reader cannot: the rule is a diff rule id
 * (a misspelt one would match nothing and only be reported as "can go"), the location has a
 * shape some finding can have, the message is not empty (it would match everything).
 */
export async function readAcceptedChanges(path: string): Promise<AcceptEntry[]> {
  const entries = await readAcceptList(path, ACCEPT_KEYS, "rule");
  entries.forEach(({ match }, i) => {
    const where = `${path}: entry ${i + 1}`;
    if (!(RULE_IDS as string[]).includes(match.rule as string))
      throw new AcceptListError(`${where}: no diff rule named ${match.rule} (the ids: src/diff/README.md)`);
    const loc = match.location;
    if (loc !== undefined && !(loc.startsWith("/") || loc.startsWith("#/") || OPERATION.test(loc)))
      throw new AcceptListError(
        `${where}: location must be an operation (GET /api/v1/rank), a path (/api/v1/rank) or a pointer (#/components/schemas/Alert), got ${loc}`,
      );
    if (match.message === "") throw new AcceptListError(`${where}: message must not be empty`);
  });
  return entries;
}

/**
 * An entry matches a finding of its rule, narrowed by `location` (a prefix of the finding's
 * operation, its path or its pointer, whole segments at a time) and `message` (a part of the
 * message as printed).
 */
export function acceptMatches(e: AcceptEntry, f: Finding): boolean {
  const { rule, location, message } = e.match;
  return (
    rule === f.rule &&
    (location === undefined || locatedUnder(f, location)) &&
    (message === undefined || f.message.includes(message))
  );
}

/**
 * Segment-wise so `#/components/schemas/Alert` does not also take `AlertList`. A path without a
 * method takes every method of it; the pointer may be written with or without the `#` the text
 * format prints.
 */
function locatedUnder(f: Finding, location: string): boolean {
  const want = location.replace(/^#/, "").replace(/\/+$/, "");
  const { operation, successor, pointer } = f.location;
  const names = [pointer, operation, successor]
    .filter((n): n is string => n !== undefined)
    .flatMap((n) => [n, n.replace(/^[A-Z]+ /, "")]);
  return names.some((n) => n === want || n.startsWith(`${want}/`));
}

/**
 * The result with the findings a live entry covers marked `accepted`, and the entries past their
 * date or unused said in `acceptance`. Summary counts stay those of every finding.
 */
export function acceptChanges(r: DiffResult, entries: AcceptEntry[], today: string): DiffResult {
  const sorted = applyAcceptList(r.findings, entries, acceptMatches, today);
  const entryOf = new Map(sorted.accepted.map(({ finding, entry }) => [finding, entry]));
  return {
    ...r,
    findings: r.findings.map((f) => {
      const e = entryOf.get(f);
      return e ? { ...f, accepted: { reason: e.reason, expires: e.expires } } : f;
    }),
    acceptance: { expired: sorted.expired, unused: sorted.unused },
  };
}
