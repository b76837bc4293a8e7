/**
 * Merging two ledgers, for a run's own observations into the file and for two runs that raced.
 * The merge is commutative (and associative up to the absence streaks of runs that overlapped in
 * time): counts add, first is the earlier, last the later. Whichever run writes last, the file
 * holds both.
 */
import type { FieldRecord, KindRecord, Ledger, Sighting, Stamp, TypeSeen, VersionRecord } from "./types.ts";
import { emptyLedger } from "./types.ts";

/** Orders stamps by instant, then by run id (so equal instants merge the same whichever side comes first). */
export const compareStamps = (a: Stamp, b: Stamp): number =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.run < b.run ? -1 : a.run > b.run ? 1 : 0;
const earlier = (a: Stamp, b: Stamp) => (compareStamps(a, b) <= 0 ? a : b);
const later = (a: Stamp, b: Stamp) => (compareStamps(a, b) >= 0 ? a : b);

function both<T>(a: T | undefined, b: T | undefined, merge: (a: T, b: T) => T): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return merge(a, b);
}

function mergeRecords<T>(a: Record<string, T>, b: Record<string, T>, merge: (a: T, b: T) => T) {
  const out: Record<string, T> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] = mine === undefined ? value : merge(mine, value);
  }
  return out;
}

// Instants are ISO strings compared as text: Math.min/max (biome's suggestion) would give NaN.
const mergeTypes = (a: TypeSeen, b: TypeSeen): TypeSeen => [
  a[0] + b[0],
  // biome-ignore lint/complexity/useMathMinMax: strings, see above
  a[1] <= b[1] ? a[1] : b[1],
  // biome-ignore lint/complexity/useMathMinMax: strings, see above
  a[2] >= b[2] ? a[2] : b[2],
];

/**
 * A field seen by both sides. A side's absence streak counts unless the other side saw the field
 * after the streak began (a run that saw it later ends the other run's streak; a side's own
 * presence already ended its own). The same rule both ways: the merge is commutative.
 */
function mergeFields(a: FieldRecord, b: FieldRecord): FieldRecord {
  const last = later(a.last, b.last);
  const standing = (s: FieldRecord["absent"], other: FieldRecord) =>
    s !== undefined && compareStamps(s.from, other.last) > 0 ? [s] : [];
  const streaks = [...standing(a.absent, b), ...standing(b.absent, a)];
  const absent = streaks.reduce<FieldRecord["absent"]>(
    (sum, s) =>
      sum
        ? {
            n: sum.n + s.n,
            answers: sum.answers + s.answers,
            runs: sum.runs + s.runs,
            from: earlier(sum.from, s.from),
            to: later(sum.to, s.to),
          }
        : s,
    undefined,
  );
  return {
    n: a.n + b.n,
    missed: a.missed + b.missed,
    types: mergeRecords(a.types, b.types, mergeTypes),
    first: earlier(a.first, b.first),
    last,
    ...(absent ? { absent } : {}),
  };
}

function mergeKinds(a: KindRecord, b: KindRecord): KindRecord {
  const dropped = (a.dropped ?? 0) + (b.dropped ?? 0);
  return {
    answers: a.answers + b.answers,
    first: earlier(a.first, b.first),
    last: later(a.last, b.last),
    fields: mergeRecords(a.fields, b.fields, mergeFields),
    ...(dropped ? { dropped } : {}),
  };
}

export const mergeSightings = <T extends Sighting>(a: T, b: T): T => ({
  ...(compareStamps(a.last, b.last) >= 0 ? a : b),
  n: a.n + b.n,
  first: earlier(a.first, b.first),
  last: later(a.last, b.last),
});

function mergeVersions(a: VersionRecord, b: VersionRecord): VersionRecord {
  const alive = both(a.alive, b.alive, mergeSightings);
  const gone = both(a.gone, b.gone, mergeSightings);
  const releases = both(a.releases, b.releases, (x, y) => mergeRecords(x, y, mergeSightings));
  return { ...(alive ? { alive } : {}), ...(gone ? { gone } : {}), ...(releases ? { releases } : {}) };
}

export function mergeLedgers(a: Ledger, b: Ledger): Ledger {
  const first = both(a.first, b.first, earlier);
  const last = both(a.last, b.last, later);
  return {
    ...emptyLedger(),
    runs: a.runs + b.runs,
    ...(first ? { first } : {}),
    ...(last ? { last } : {}),
    kinds: mergeRecords(a.kinds, b.kinds, mergeKinds),
    versions: mergeRecords(a.versions, b.versions, mergeVersions),
  };
}
