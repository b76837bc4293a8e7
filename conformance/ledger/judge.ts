/**
 * Judgements the ledger supports and no single run can: a field earlier answers of a kind carried
 * and comparable answers now lack (a removal within v1), a field whose type changed, v1 retired
 * less than the promised months after its successor appeared, and, as information, fields that
 * arrived (additive is allowed). Every date comes from the ledger.
 */

import { parentPath } from "../../src/spec/field-paths.ts";
import type { VersioningPolicy } from "../../src/spec/types.ts";
import { compareStamps } from "./merge.ts";
import type { FieldRecord, Ledger, Stamp } from "./types.ts";
import { ROOT } from "./types.ts";

export type Level = "failure" | "warning" | "info";

export const LEDGER_CHECKS = {
  "ledger:field-removed":
    "a field earlier answers of the same kind carried is no longer sent (additive only)",
  "ledger:type-changed": "a field's JSON type changed between runs",
  "ledger:v1-retired-early":
    "v1 stays served at least the promised months after its successor first appeared",
  "ledger:field-added": "fields that arrived (additive, allowed): information",
} as const;
export type LedgerCheck = keyof typeof LEDGER_CHECKS;

/** Whether a check name is one of the ledger's (a --known entry may name them too). */
export const isLedgerCheck = (name: string | undefined): name is LedgerCheck =>
  name !== undefined && Object.hasOwn(LEDGER_CHECKS, name);

export interface LedgerJudgement {
  check: LedgerCheck;
  level: Level;
  /** The operation it is about (`getFeed`), or the version prefix (`/api/v1`). */
  operation: string;
  /** The kind of answer (`getFeed 200`) and the field path, for field judgements. */
  answerKind?: string;
  path?: string;
  title: string;
  /** What the ledger holds that supports it: counts and dates. */
  evidence: Record<string, unknown>;
}

/**
 * A removal is reported only when chance cannot explain the streak: with the field's presence
 * rate bounded from below (Wilson, 99%), the probability that that many answers in a row lack it
 * must be under `alpha`. Answers, not items, are the trials (the items of one answer come from
 * one query and are not independent), and the streak must span `minRuns` runs (one run's
 * consecutive answers ask alike: a window of older items may lack a field the rest carry). A
 * field present in 40% of answers is never reported because one answer lacks it.
 */
export const REMOVAL_RULE = { alpha: 0.001, z: 2.576, minAnswers: 2, minRuns: 2, minPresent: 3 } as const;
/** A type is changed when the old one, seen this often, has not been seen since the new one appeared this often. */
const TYPE_RULE = { minOld: 3, minNew: 2 } as const;

/** The Wilson score interval's lower bound of a proportion. */
export function wilsonLower(successes: number, trials: number, z: number): number {
  if (trials === 0) return 0;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - spread) / (1 + z2 / trials));
}

/** Whether a field's absence streak is a removal, and the numbers that say so. */
export function removalOf(
  field: FieldRecord,
): { removed: boolean; rate: number; lower: number; chance: number; before: number } | undefined {
  const streak = field.absent;
  if (!streak) return undefined;
  const before = field.n + field.missed - streak.n;
  const rate = before > 0 ? field.n / before : 0;
  const lower = wilsonLower(field.n, before, REMOVAL_RULE.z);
  const chance = (1 - lower) ** streak.answers;
  const removed =
    field.n >= REMOVAL_RULE.minPresent &&
    streak.answers >= REMOVAL_RULE.minAnswers &&
    streak.runs >= REMOVAL_RULE.minRuns &&
    chance < REMOVAL_RULE.alpha;
  return { removed, rate, lower, chance, before };
}

const operationOf = (kind: string) => kind.split(" ")[0] ?? kind;
const percent = (x: number) => `${Math.round(x * 100)}%`;
const day = (s: Stamp) => s.at.slice(0, 10);

function fieldJudgements(ledger: Ledger, run: string): LedgerJudgement[] {
  const out: LedgerJudgement[] = [];
  for (const [kind, record] of Object.entries(ledger.kinds)) {
    const operation = operationOf(kind);
    for (const [path, field] of Object.entries(record.fields)) {
      if (path === ROOT) continue;
      const removal = removalOf(field);
      if (removal?.removed && field.absent) {
        const always = removal.before === field.n;
        out.push({
          check: "ledger:field-removed",
          level: "failure",
          operation,
          answerKind: kind,
          path,
          title: `${path} no longer sent in ${kind} answers: ${always ? "always" : `${percent(removal.rate)} of the time`} carried from ${day(field.first)} to ${day(field.last)}, lacking since ${day(field.absent.from)}`,
          evidence: {
            carried: `${field.n} of ${removal.before} instances`,
            firstSeen: field.first,
            lastSeen: field.last,
            lackingSince: field.absent.from,
            lackingUntil: field.absent.to,
            lackingInstances: field.absent.n,
            lackingAnswers: field.absent.answers,
            lackingRuns: field.absent.runs,
            chance: Number(removal.chance.toPrecision(3)),
          },
        });
      }
      out.push(...typeChanges(kind, path, field));
      // A new object or array is one line: its own new children are not listed again.
      const isNew = (f: FieldRecord | undefined) =>
        f?.first.run === run && compareStamps(record.first, f.first) < 0;
      const parent = parentPath(path);
      if (isNew(field) && !(parent !== undefined && isNew(record.fields[parent]))) {
        out.push({
          check: "ledger:field-added",
          level: "info",
          operation,
          answerKind: kind,
          path,
          title: `new field ${path} in ${kind} answers, first seen ${field.first.at} (${Object.keys(field.types).join("|")})`,
          evidence: { firstSeen: field.first, kindSince: record.first, types: Object.keys(field.types) },
        });
      }
    }
  }
  return out;
}

function typeChanges(kind: string, path: string, field: FieldRecord): LedgerJudgement[] {
  const types = Object.entries(field.types);
  const out: LedgerJudgement[] = [];
  for (const [was, [oldCount, oldFirst, oldLast]] of types) {
    for (const [now, [newCount, newFirst, newLast]] of types) {
      if (was === now || oldLast >= newFirst || oldCount < TYPE_RULE.minOld || newCount < TYPE_RULE.minNew)
        continue;
      out.push({
        check: "ledger:type-changed",
        level: "failure",
        operation: operationOf(kind),
        answerKind: kind,
        path,
        title: `${path} in ${kind} answers changed type from ${was} to ${now}: ${was} seen ${oldCount} times up to ${oldLast}, ${now} since ${newFirst}`,
        evidence: {
          was,
          now,
          before: { count: oldCount, first: oldFirst, last: oldLast },
          since: { count: newCount, first: newFirst, last: newLast },
        },
      });
    }
  }
  return out;
}

/** Whole calendar months from one instant to a later one (5 months and 29 days is 5). */
export function monthsBetween(from: string, to: string): number {
  const a = new Date(from);
  const b = new Date(to);
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  const anniversary = new Date(a);
  anniversary.setUTCMonth(a.getUTCMonth() + months);
  if (anniversary > b) months--;
  return months;
}

const addMonths = (at: string, months: number) => {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

function versionJudgements(ledger: Ledger, policy: VersioningPolicy): LedgerJudgement[] {
  const prefix = policy.path_prefix;
  const months = policy.min_support_months_after_successor;
  const current = ledger.versions[prefix];
  // The earliest sighting of any later version: the successor's appearance.
  const successor = Object.entries(ledger.versions)
    .filter(([p, v]) => p !== prefix && v.alive)
    .map(([p, v]) => ({ prefix: p, first: (v.alive as NonNullable<typeof v.alive>).first }))
    .sort((a, b) => compareStamps(a.first, b.first))[0];
  if (!current?.alive) return [];
  const gone = current.gone;
  const isGone = gone && compareStamps(gone.last, current.alive.last) > 0;
  const base = { check: "ledger:v1-retired-early" as const, operation: prefix };
  if (!isGone || !gone) {
    if (!successor) return [];
    return [
      {
        ...base,
        level: "info",
        title: `${successor.prefix} first seen ${day(successor.first)}: ${prefix} must stay served until at least ${addMonths(successor.first.at, months)}`,
        evidence: { successorFirstSeen: successor.first, lastServed: current.alive.last },
      },
    ];
  }
  // The first sighting of this outage: the earliest gone stamp after it was last served, when the
  // ledger holds it; else the latest (an older outage came in between, so the later date is the sure one).
  const goneAt = compareStamps(gone.first, current.alive.last) > 0 ? gone.first : gone.last;
  const evidence = {
    gone: gone.how,
    goneSince: goneAt,
    lastServed: current.alive.last,
    successorFirstSeen: successor?.first,
  };
  // Refused connections alone are an outage as much as a retirement: judged only once another
  // version answered after v1 stopped (then the host is up and v1 alone is gone).
  const successorServedSince =
    successor &&
    compareStamps(ledger.versions[successor.prefix]?.alive?.last ?? successor.first, goneAt) >= 0;
  if (gone.how.startsWith("unreachable") && !successorServedSince)
    return [
      {
        ...base,
        level: "info",
        title: `${prefix} unreachable since ${day(goneAt)} (last served ${day(current.alive.last)}) and no other version answered since: an outage or a retirement, judged once one does`,
        evidence,
      },
    ];
  if (!successor)
    return [
      {
        ...base,
        level: "failure",
        title: `${prefix} gone (${gone.how}) since ${day(goneAt)}, last served ${day(current.alive.last)}, and no successor version was ever seen`,
        evidence,
      },
    ];
  const after = monthsBetween(successor.first.at, goneAt.at);
  const words = `${prefix} gone (${gone.how}) since ${day(goneAt)}, ${after} month${after === 1 ? "" : "s"} after ${successor.prefix} was first seen (${day(successor.first)}); the promise is ${months}`;
  if (after >= months) return [{ ...base, level: "info", title: `${words}: kept`, evidence }];
  // The ledger bounds the successor's publication from above (it may have been out before the
  // first run saw it): within the last month of the promise this is a warning, not a failure.
  const level: Level = after >= months - 1 ? "warning" : "failure";
  return [{ ...base, level, title: words, evidence }];
}

/** Every judgement the ledger supports after a run (`run`: the id of the run just merged). */
export function judgeLedger(ledger: Ledger, run: string, policy: VersioningPolicy): LedgerJudgement[] {
  return [...fieldJudgements(ledger, run), ...versionJudgements(ledger, policy)];
}
