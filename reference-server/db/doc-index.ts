import type { Database, Statement } from "better-sqlite3";
import type { TypedFastBitSet } from "typedfastbitset";
import type { AlertRow } from "../data/records.ts";
import { decodeDocs, encodeDocs, encodeSortedDocs, MAX_DOC } from "./doc-sets.ts";
import { DocList, GramLists } from "./gram-lists.ts";
import { alertTokens } from "./grams.ts";

/** The price_buckets key of a price: its whole units (bucket b holds b <= price < b + 1). */
export function priceBucket(price: number): number {
  return Math.floor(price);
}

/** What of an alert the count index reads. */
export type Counted = Pick<AlertRow, "title" | "content" | "cateid" | "price" | "tags">;

/**
 * The exact-count index, changed at write time, in the same transaction as the rows:
 * - term_docs: for every index token (grams.ts: bigrams of title and content, the facets: all,
 *   category, tags), the set of alerts holding it, by doc number (doc-sets.ts). Totals of OR
 *   lists, block words and categories are cardinalities of unions and differences of these sets
 *   (fast-count.ts), and search pages walk them newest first (word-search.ts).
 * - price_counts: alerts per distinct price, and price_buckets: alerts per whole unit of price
 *   (floor), so that a price range's total sums the buckets inside it and the distinct prices
 *   of its two partial ends (a few hundred rows instead of every priced alert in the range).
 * Writers record each alert they add or remove here; `flush` rewrites each touched token's set
 * once (a bulk write of a million alerts rewrites each set once, a live write only its tokens).
 * An alert may be added and removed before one flush (a write repeating an id replaces the row
 * it wrote itself): its adds and removes cancel, in the sets as in the price counts.
 */
export class IndexChanges {
  private readonly added = new Map<string, DocList>();
  /** Gram tokens added (addText), kept apart until flush (gram-lists.ts). */
  private readonly grams = new GramLists();
  private readonly removed = new Map<string, number[]>();
  private readonly prices = new Map<number, number>();
  private nextDoc: number | undefined;
  private nextDocDirty = false;

  constructor(
    private readonly db: Database,
    /** The sets are known to be empty (a generation): nothing is read back before writing. */
    private readonly fresh = false,
  ) {}

  /** A doc number for a new alert row; never reused, so a set never confuses two alerts. */
  newDoc(): number {
    if (this.nextDoc === undefined) {
      const stored = this.db.prepare("SELECT value FROM meta WHERE key = 'next_doc'").pluck().get();
      this.nextDoc = stored === undefined ? 0 : Number(stored);
    }
    if (this.nextDoc > MAX_DOC) throw new Error("alert doc numbers exhausted (2^32 alerts written)");
    this.nextDocDirty = true;
    return this.nextDoc++;
  }

  /** `tokens`: the row's alertTokens when the caller has them already. */
  add(doc: number, row: Counted, tokens = alertTokens(row)): void {
    this.addTokens(doc, tokens);
    if (row.price !== null) this.prices.set(row.price, (this.prices.get(row.price) ?? 0) + 1);
  }

  /** Puts the doc into the sets of the text's gram tokens (grams.ts gramTokens). */
  addText(doc: number, text: string): void {
    this.grams.addText(doc, text);
  }

  /**
   * Adds sets collected elsewhere (the generator thread's GramLists): each token's docs,
   * ascending and above every doc already added to it.
   */
  addLists(lists: Iterable<[string, Uint32Array]>): void {
    for (const [term, docs] of lists) {
      const list = this.added.get(term);
      if (!list) this.added.set(term, DocList.of(docs));
      else for (const doc of docs) list.push(doc);
    }
  }

  /** Puts the doc into the tokens' sets only (no price count). */
  addTokens(doc: number, tokens: Iterable<string>): void {
    for (const term of tokens) {
      let list = this.added.get(term);
      if (!list) {
        list = new DocList();
        this.added.set(term, list);
      }
      list.push(doc);
    }
  }

  /** `extra`: tokens the row's columns do not give (LATE_TOKEN); a doc absent from a set is no change. */
  remove(doc: number, row: Counted, extra: string[] = []): void {
    for (const term of [...alertTokens(row), ...extra]) {
      let list = this.removed.get(term);
      if (!list) {
        list = [];
        this.removed.set(term, list);
      }
      list.push(doc);
    }
    if (row.price !== null) this.prices.set(row.price, (this.prices.get(row.price) ?? 0) - 1);
  }

  /** Writes the recorded changes into term_docs and price_counts; the object can be reused. */
  flush(): void {
    for (const [term, grams] of this.grams.drain()) {
      const list = this.added.get(term);
      if (!list) this.added.set(term, grams);
      else for (const doc of grams.view()) list.push(doc);
    }
    const read = this.db.prepare<[string], Buffer>("SELECT docs FROM term_docs WHERE term = ?").pluck();
    const write = this.db.prepare("INSERT OR REPLACE INTO term_docs (term, docs) VALUES (?, ?)");
    const drop = this.db.prepare("DELETE FROM term_docs WHERE term = ?");
    const terms = new Set([...this.added.keys(), ...this.removed.keys()]);
    for (const term of terms) {
      const added = this.added.get(term)?.view();
      const removed = this.removed.get(term);
      const blob =
        this.fresh && added && !removed ? encodeSortedDocs(added) : this.merged(read, term, added, removed);
      if (blob) write.run(term, blob);
      else drop.run(term);
    }
    const bump = this.db.prepare(
      `INSERT INTO price_counts (price, alerts) VALUES (?, ?)
       ON CONFLICT (price) DO UPDATE SET alerts = alerts + excluded.alerts`,
    );
    const bumpBucket = this.db.prepare(
      `INSERT INTO price_buckets (bucket, alerts) VALUES (?, ?)
       ON CONFLICT (bucket) DO UPDATE SET alerts = alerts + excluded.alerts`,
    );
    const buckets = new Map<number, number>();
    for (const [price, delta] of this.prices) {
      if (delta === 0) continue;
      bump.run(price, delta);
      buckets.set(priceBucket(price), (buckets.get(priceBucket(price)) ?? 0) + delta);
    }
    for (const [bucket, delta] of buckets) if (delta !== 0) bumpBucket.run(bucket, delta);
    if ([...this.prices.values()].some((d) => d < 0))
      this.db.exec("DELETE FROM price_counts WHERE alerts <= 0; DELETE FROM price_buckets WHERE alerts <= 0");
    if (this.nextDocDirty) {
      this.db
        .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('next_doc', ?)")
        .run(String(this.nextDoc));
    }
    this.added.clear();
    this.removed.clear();
    this.prices.clear();
    this.nextDocDirty = false;
  }

  private merged(
    read: Statement<[string], Buffer>,
    term: string,
    added: Uint32Array | undefined,
    removed: number[] | undefined,
  ): Buffer | undefined {
    const stored = read.get(term);
    const set: TypedFastBitSet = decodeDocs(stored ?? new Uint8Array(0));
    // Additions first: a doc both added and removed in one flush is an alert written and then
    // replaced inside the same write (an import file or a live batch repeating its id), so it
    // must end up out of the set. Doc numbers are never reused, so a removed doc is never
    // added again afterwards: removing last is right in every case.
    for (const doc of added ?? []) set.add(doc);
    for (const doc of removed ?? []) set.remove(doc);
    return encodeDocs(set);
  }
}
