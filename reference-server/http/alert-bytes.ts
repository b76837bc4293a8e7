import type { Store } from "../db/store.ts";
import { alertRecord } from "./records.ts";

/** Serialized rows kept at most per store: about 0.4 KB each as UTF-8, a few MB in all. */
const MAX_ROWS = 10_000;

const perStore = new WeakMap<Store, AlertBytes>();

/**
 * Search answers' rows (alertRecord with content) as UTF-8 JSON bytes, by doc number, for the
 * data state they were read at (Store.changeStamp). Reading a page's rows (15 columns each
 * converted to JavaScript), building their records, serializing them and encoding the body was
 * the largest part of a first-seen search's CPU; the newest alerts head most searches' pages, so
 * a new search mostly shows rows an earlier one serialized, and reads and serializes only the
 * rows it lacks. Any write empties it, as it does the answer memo (Store.memo): a doc names the
 * same row, unchanged, within one data state. Bounded: emptied when full.
 */
export class AlertBytes {
  private readonly rows = new Map<number, Buffer>();
  private stamp: unknown;

  private constructor(private readonly store: Store) {}

  static of(store: Store): AlertBytes {
    let bytes = perStore.get(store);
    if (!bytes) {
      bytes = new AlertBytes(store);
      perStore.set(store, bytes);
    }
    return bytes;
  }

  /** The rows of `docs` (Store.alertDocs), in that order; undefined when one has no row. */
  rowsOf(docs: number[]): Buffer[] | undefined {
    const stamp = this.store.changeStamp();
    if (stamp !== this.stamp || this.rows.size + docs.length > MAX_ROWS) {
      this.rows.clear();
      this.stamp = stamp;
    }
    const missing = docs.filter((doc) => !this.rows.has(doc));
    for (const row of this.store.rowsByDoc(missing))
      this.rows.set(row.doc, alertBytes(alertRecord(row, true)));
    const out: Buffer[] = [];
    for (const doc of docs) {
      const bytes = this.rows.get(doc);
      if (!bytes) return undefined;
      out.push(bytes);
    }
    return out;
  }
}

/** One record as it stands in a JSON array, UTF-8 encoded. */
export const alertBytes = (record: Record<string, unknown>): Buffer => Buffer.from(JSON.stringify(record));
