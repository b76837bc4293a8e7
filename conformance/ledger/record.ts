/**
 * Records one run into a ledger of its own (the run's delta), given the ledger as it stood when
 * the run began: the fields known before are what an answer can be seen to lack. The delta is
 * merged into the file at the end (merge.ts), so two runs that raced both count.
 */

import {
  branchOf,
  childPath,
  itemPath,
  jsonType,
  parentPath,
  propertySchema,
} from "../../src/spec/field-paths.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { JsonSchema } from "../../src/spec/types.ts";
import type { Exchange } from "../types.ts";
import { compareStamps } from "./merge.ts";
import {
  emptyLedger,
  type FieldRecord,
  type KindRecord,
  type Ledger,
  ROOT,
  type Sighting,
  type Stamp,
} from "./types.ts";

/** Paths kept per kind: far above the spec's (a few dozen), low enough that free-form keys cannot bloat the file. */
export const MAX_PATHS_PER_KIND = 400;
/** Nesting read into an answer; deeper values are recorded as their container only. */
const MAX_DEPTH = 12;

/** An instant as the ledger writes it: ISO 8601 to the second. */
export const isoSecond = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A short run id: the start instant in base 36 and a random tail (two runs of one second differ). */
export function newRunId(now: number, random = Math.random): string {
  return `${Math.floor(now / 1000).toString(36)}-${Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, "0")}`;
}

/** What is seen of one version: its meta served (with the api_version it states), or gone and how. */
export type VersionSighting = { alive: true; release?: string } | { gone: string };

export class LedgerRecorder {
  private readonly delta = emptyLedger();
  /** Per kind, the children every parent path is known to have (the base's fields and this run's). */
  private readonly known = new Map<string, Map<string, Set<string>>>();

  constructor(
    private readonly base: Ledger,
    readonly run: string,
    private readonly now: () => number = Date.now,
  ) {}

  private stamp(): Stamp {
    return { at: isoSecond(this.now()), run: this.run };
  }

  /** An exchange of the API, read against the spec (its operation and the response schema). */
  observeExchange(spec: Spec, exchange: Exchange): void {
    const op = exchange.operation;
    // GET answers only (a HEAD answer has no body to compare), and only bodies that parsed.
    if (!op || exchange.request.method !== "GET" || exchange.status === 0 || exchange.failure) return;
    if (typeof exchange.body !== "object" || exchange.body === null) return;
    if (!exchange.mediaType || !/[/+]json$/.test(exchange.mediaType)) return;
    const schema = spec.responseSchema(op.operationId, exchange.status, exchange.mediaType);
    this.answer(`${op.operationId} ${exchange.status}`, exchange.body, schema);
  }

  /** One answer body of a kind (`getFeed 200`): every path it carries, and what it lacks. */
  answer(kind: string, body: unknown, schema?: JsonSchema): void {
    const stamp = this.stamp();
    const record = this.kind(kind, stamp);
    record.answers++;
    const lacked = new Set<string>();
    this.walk(kind, record, body, schema, ROOT, 0, stamp, lacked);
  }

  /** A version's meta as seen (or not) at this instant. */
  version(prefix: string, seen: VersionSighting): void {
    const stamp = this.stamp();
    const record = this.delta.versions[prefix] ?? {};
    this.delta.versions[prefix] = record;
    const sight = <T extends Sighting>(s: T | undefined, extra: Omit<T, keyof Sighting>): T =>
      ({ ...(s ?? {}), ...extra, n: (s?.n ?? 0) + 1, first: s?.first ?? stamp, last: stamp }) as T;
    if ("gone" in seen) {
      record.gone = sight(record.gone, { how: seen.gone });
      return;
    }
    record.alive = sight(record.alive, {});
    if (seen.release) {
      const releases = record.releases ?? {};
      record.releases = releases;
      releases[seen.release] = sight(releases[seen.release], {});
    }
  }

  /** The run's delta: one run, its kinds, fields and versions. */
  result(): Ledger {
    const stamps = Object.values(this.delta.kinds).flatMap((k) => [k.first, k.last]);
    const sorted = [...stamps, this.stamp()].sort(compareStamps);
    return { ...this.delta, runs: 1, first: sorted[0] as Stamp, last: sorted[sorted.length - 1] as Stamp };
  }

  private kind(key: string, stamp: Stamp): KindRecord {
    let record = this.delta.kinds[key];
    if (!record) {
      record = { answers: 0, first: stamp, last: stamp, fields: {} };
      this.delta.kinds[key] = record;
      const children = new Map<string, Set<string>>();
      for (const path of Object.keys(this.base.kinds[key]?.fields ?? {})) addChild(children, path);
      this.known.set(key, children);
    }
    record.last = stamp;
    return record;
  }

  private walk(
    kind: string,
    record: KindRecord,
    value: unknown,
    schema: JsonSchema | undefined,
    path: string,
    depth: number,
    stamp: Stamp,
    lacked: Set<string>,
  ): void {
    if (!this.present(kind, record, path, jsonType(value), stamp)) return;
    if (depth >= MAX_DEPTH || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      const items = propertyItems(schema);
      for (const item of value) {
        const branch = branchOf(item, items);
        this.walk(kind, record, item, branch.schema, itemPath(path, branch.label), depth + 1, stamp, lacked);
      }
      return;
    }
    const object = value as Record<string, unknown>;
    const objectSchema = branchOf(object, schema).schema;
    const carried = new Set<string>();
    for (const [key, child] of Object.entries(object)) {
      const p = childPath(path, key);
      carried.add(p);
      this.walk(kind, record, child, propertySchema(objectSchema, key), p, depth + 1, stamp, lacked);
    }
    for (const p of this.known.get(kind)?.get(path) ?? []) {
      if (!carried.has(p)) this.lacking(kind, record, p, stamp, lacked);
    }
  }

  /** Counts a path present; false when the kind is at its cap and the path is new (not read further). */
  private present(kind: string, record: KindRecord, path: string, type: string, stamp: Stamp): boolean {
    let field = record.fields[path];
    if (!field) {
      const before = this.base.kinds[kind]?.fields[path];
      if (!before && Object.keys(record.fields).length >= MAX_PATHS_PER_KIND) {
        record.dropped = (record.dropped ?? 0) + 1;
        return false;
      }
      field = { n: 0, missed: 0, types: {}, first: stamp, last: stamp };
      record.fields[path] = field;
      const children = this.known.get(kind);
      if (children) addChild(children, path);
    }
    field.n++;
    field.last = stamp;
    delete field.absent;
    const t = field.types[type];
    field.types[type] = t ? [t[0] + 1, t[1], stamp.at] : [1, stamp.at, stamp.at];
    return true;
  }

  /** An instance of the parent without this known field: an absence after it was first seen. */
  private lacking(kind: string, record: KindRecord, path: string, stamp: Stamp, lacked: Set<string>): void {
    let field = record.fields[path];
    if (!field) {
      // Known from the ledger only: an absence-only record whose stamps are the base's own, so
      // merging it back changes no date (min and max of the same values).
      const before = this.base.kinds[kind]?.fields[path] as FieldRecord;
      field = { n: 0, missed: 0, types: {}, first: before.first, last: before.last };
      record.fields[path] = field;
    }
    field.missed++;
    const answers = lacked.has(path) ? 0 : 1;
    lacked.add(path);
    field.absent = field.absent
      ? { ...field.absent, n: field.absent.n + 1, answers: field.absent.answers + answers, to: stamp }
      : { n: 1, answers: 1, runs: 1, from: stamp, to: stamp };
  }
}

function addChild(children: Map<string, Set<string>>, path: string): void {
  const parent = parentPath(path);
  if (parent === undefined) return;
  const set = children.get(parent) ?? new Set<string>();
  children.set(parent, set);
  set.add(path);
}

const propertyItems = (schema: JsonSchema | undefined): JsonSchema | undefined =>
  schema?.items as JsonSchema | undefined;
