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
 * same row, unchanged, within one data state. Bounded: when full, the rows kept longest make
 * room (emptying it all made every search after it read its whole page again).
 */
export class AlertBytes {
  private readonly rows = new Map<number, Buffer>();
  private stamp: unknown;

  /** `maxRows`: the bound (tests set a small one). */
  constructor(
    private readonly store: Store,
    private readonly maxRows = MAX_ROWS,
  ) {}

  static of(store: Store): AlertBytes {
    let bytes = perStore.get(store);
    if (!bytes) {
      bytes = new AlertBytes(store);
      perStore.set(store, bytes);
    }
    return bytes;
  }

  /** Rows kept now. */
  get size(): number {
    return this.rows.size;
  }

  /** The rows of `docs` (Store.alertDocs), in that order; undefined when one has no row. */
  rowsOf(docs: number[]): Buffer[] | undefined {
    const stamp = this.store.changeStamp();
    if (stamp !== this.stamp) {
      this.rows.clear();
      this.stamp = stamp;
    }
    // The page's kept rows are taken before any is let go to make room for the missing ones.
    const out: (Buffer | undefined)[] = docs.map((doc) => this.rows.get(doc));
    const missing = docs.filter((_, i) => out[i] === undefined);
    if (missing.length === 0) return out as Buffer[];
    this.makeRoom(missing.length);
    for (const row of this.store.rowsByDoc(missing))
      this.rows.set(row.doc, alertBytes(alertRecord(row, true)));
    for (let i = 0; i < docs.length; i++) {
      if (out[i] !== undefined) continue;
      const bytes = this.rows.get(docs[i] as number);
      if (!bytes) return undefined;
      out[i] = bytes;
    }
    return out as Buffer[];
  }

  /** Lets go of the rows kept longest (a Map iterates in the order its keys were set) until `count` more fit. */
  private makeRoom(count: number): void {
    let excess = this.rows.size + count - this.maxRows;
    if (excess <= 0) return;
    for (const doc of this.rows.keys()) {
      this.rows.delete(doc);
      if (--excess === 0) return;
    }
  }
}

/** One record as it stands in a JSON array, UTF-8 encoded. */
export const alertBytes = (record: Record<string, unknown>): Buffer => Buffer.from(JSON.stringify(record));
