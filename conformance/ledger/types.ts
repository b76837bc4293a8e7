/**
 * The ledger: what a deployment's answers looked like across runs, kept in one small JSON file
 * between scheduled runs. One run cannot see a field that stopped arriving last week (optional in
 * the schema, so every single run passes) or v1 retired three months after v2 appeared; the
 * ledger can. Its size is bounded by the schema's paths (array items collapse to `[]`), not by
 * the number of runs: counts grow, keys do not.
 */

/** When something was seen: the instant (ISO 8601, seconds) and the run's id. */
export interface Stamp {
  at: string;
  run: string;
}

/** A JSON type seen at a path: how often, first and last instant (ISO, comparable as strings). */
export type TypeSeen = [count: number, first: string, last: string];

/** One field path of one kind of answer, e.g. `data[].price` or `data[type=smzdm].mall_name`. */
export interface FieldRecord {
  /** Instances that carried it (of its parent: the answer, `meta`, one item of `data[]`...). */
  n: number;
  /** Instances of its parent that lacked it, after it was first seen (its presence rate's denominator). */
  missed: number;
  /** JSON types (null, boolean, number, string, array, object) with their counts and instants. */
  types: Record<string, TypeSeen>;
  first: Stamp;
  last: Stamp;
  /**
   * Instances of its parent lacking it since it was last seen, in how many answers and runs: what
   * a removal is judged on. Gone as soon as it is seen again.
   */
  absent?: { n: number; answers: number; runs: number; from: Stamp; to: Stamp };
}

/** Answers of one operation and status (`getFeed 200`): the unit of comparison. */
export interface KindRecord {
  answers: number;
  first: Stamp;
  last: Stamp;
  /** Field paths; the answer's root is `$`. */
  fields: Record<string, FieldRecord>;
  /** Paths not kept because the kind reached its path cap (an answer of free-form keys). */
  dropped?: number;
}

/** How a version's meta answered: served, or gone (404, refused, redirected away). */
export interface Sighting {
  n: number;
  first: Stamp;
  last: Stamp;
}

/** One API version, by path prefix (`/api/v1`, `/api/v2`). */
export interface VersionRecord {
  alive?: Sighting;
  gone?: Sighting & { how: string };
  /** `api_version` values its meta stated, each with when. */
  releases?: Record<string, Sighting>;
}

export const LEDGER_FORMAT = "dealkit-ledger";
export const LEDGER_VERSION = 1;

export interface Ledger {
  format: typeof LEDGER_FORMAT;
  version: typeof LEDGER_VERSION;
  /** Runs merged into it. */
  runs: number;
  first?: Stamp;
  last?: Stamp;
  kinds: Record<string, KindRecord>;
  versions: Record<string, VersionRecord>;
}

export const emptyLedger = (): Ledger => ({
  format: LEDGER_FORMAT,
  version: LEDGER_VERSION,
  runs: 0,
  kinds: {},
  versions: {},
});

export { ROOT } from "../../src/spec/field-paths.ts";
