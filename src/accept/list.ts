/**
 * Accepted findings: a reviewed list of findings a team lives with for now, each with its reason
 * and an expiry date, in the spirit of Schemathesis' and oasdiff's ignore files but never
 * forever. The conformance suite reads one (`--known FILE`: findings of an implementation), the
 * diff another (`--accept FILE`: reviewed breaking changes). A finding an entry matches is still
 * shown, but does not fail; an entry past its date fails the run whatever it matches, so the list
 * cannot rot; an entry nothing matched any more is said, so it can go.
 *
 * The file is YAML or JSON: a list of entries, each the fields it matches on plus `reason` and
 * `expires` (YYYY-MM-DD, the last day it holds).
 */
import { readFile } from "node:fs/promises";
import { InputError } from "../errors/input-error.ts";
import { ParseError, parseYamlText } from "../errors/parse-text.ts";

export interface AcceptEntry {
  /** The fields a finding must have (string equality, or a prefix for the keys named so by the reader). */
  match: Record<string, string>;
  reason: string;
  expires: string;
}

export class AcceptListError extends InputError {}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads and checks a list: every entry has a non-empty reason, a valid expiry date, and at least
 * one of the `keys` it may match on (and nothing else).
 */
export async function readAcceptList(
  path: string,
  keys: readonly string[],
  required: string,
): Promise<AcceptEntry[]> {
  let raw: unknown;
  try {
    raw = parseYamlText(await readFile(path, "utf8"), path);
  } catch (err) {
    // A syntax error already names the file, line and column, with the line shown.
    if (err instanceof ParseError) throw new AcceptListError(err.message);
    throw new AcceptListError(`cannot read ${path}: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!Array.isArray(raw)) throw new AcceptListError(`${path}: expected a list of entries`);
  return raw.map((item, i) => {
    const where = `${path}: entry ${i + 1}`;
    if (item === null || typeof item !== "object" || Array.isArray(item))
      throw new AcceptListError(`${where} is not a mapping`);
    const { reason, expires, ...rest } = item as Record<string, unknown>;
    if (typeof reason !== "string" || reason.trim() === "")
      throw new AcceptListError(`${where} needs a reason`);
    const date = expires instanceof Date ? expires.toISOString().slice(0, 10) : expires;
    if (typeof date !== "string" || !DATE.test(date) || Number.isNaN(Date.parse(date)))
      throw new AcceptListError(`${where} needs expires: YYYY-MM-DD (the last day it holds)`);
    for (const k of Object.keys(rest)) {
      if (!keys.includes(k))
        throw new AcceptListError(
          `${where}: unknown field ${k} (known: ${keys.join(", ")}, reason, expires)`,
        );
    }
    if (typeof rest[required] !== "string") throw new AcceptListError(`${where} needs ${required}`);
    const match = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
    return { match, reason, expires: date };
  });
}

export interface Accepted<T> {
  /** Findings an unexpired entry matched, with that entry. */
  accepted: { finding: T; entry: AcceptEntry }[];
  /** Findings no unexpired entry matched: they fail as usual. */
  open: T[];
  /** Entries past their date (they fail the run). */
  expired: AcceptEntry[];
  /** Unexpired entries that matched nothing (can be removed). */
  unused: AcceptEntry[];
}

/** Sorts findings by the list, on `today` (YYYY-MM-DD). */
export function applyAcceptList<T>(
  findings: T[],
  entries: AcceptEntry[],
  matches: (entry: AcceptEntry, finding: T) => boolean,
  today: string,
): Accepted<T> {
  const live = entries.filter((e) => e.expires >= today);
  const used = new Set<AcceptEntry>();
  const out: Accepted<T> = {
    accepted: [],
    open: [],
    expired: entries.filter((e) => e.expires < today),
    unused: [],
  };
  for (const finding of findings) {
    const entry = live.find((e) => matches(e, finding));
    if (entry) {
      used.add(entry);
      out.accepted.push({ finding, entry });
    } else out.open.push(finding);
  }
  out.unused = live.filter((e) => !used.has(e));
  return out;
}

/** One line naming an entry: what it matches, until when, why. */
export function describeEntry(e: AcceptEntry): string {
  const what = Object.entries(e.match)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return `${what} (until ${e.expires}: ${e.reason})`;
}
