import type { Database, Statement } from "better-sqlite3";
import { type DocSet, readDocs } from "./doc-sets.ts";
import { singleToken } from "./grams.ts";
import { SetCounter } from "./set-count.ts";
import type { AlertFilter } from "./store.ts";

/**
 * Token sets kept between searches, by their size in bytes (as stored: a dense set maxDoc/8, a
 * sparse one 4 bytes a doc). Every set of the 1M-alert bench database takes 88 MB: decoding a
 * dense set costs more than counting with it, so the cache holds them all at that size.
 */
const SET_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * Exact totals from the count index (doc-index.ts) instead of counting the matches:
 * - words (OR list, block words, a category): the cardinality of the union of the words' token
 *   sets, minus the union of the block words' sets, within the category's facet set. Words of
 *   exactly 2 characters only (one bigram token each: singleToken); longer words are phrases of
 *   several tokens and 1-character words prefixes over many, so those fall back to counting.
 * - a price range alone: the sum of price_counts over the distinct prices in the range.
 * Anything else (tags, category lists, price with words) returns undefined: the caller counts.
 */
export class FastCounts {
  private readonly termDocs: Statement<[string], Buffer>;
  private readonly pricesIn: Statement<[number, number], number>;
  private readonly pricesFromBelow: Statement<[number, number], number>;
  private readonly bucketsIn: Statement<[number, number], number>;
  private readonly sets = new Map<string, DocSet>();
  private readonly counter = new SetCounter();
  private setBytes = 0;
  private stamp: unknown;

  private readonly allSets: Statement<[], { term: string; docs: Buffer }>;

  constructor(db: Database) {
    this.allSets = db.prepare<[], { term: string; docs: Buffer }>("SELECT term, docs FROM term_docs");
    this.termDocs = db.prepare<[string], Buffer>("SELECT docs FROM term_docs WHERE term = ?").pluck();
    const sum = "SELECT coalesce(sum(alerts), 0) FROM";
    this.pricesIn = db
      .prepare<[number, number], number>(`${sum} price_counts WHERE price >= ? AND price <= ?`)
      .pluck();
    this.pricesFromBelow = db
      .prepare<[number, number], number>(`${sum} price_counts WHERE price >= ? AND price < ?`)
      .pluck();
    this.bucketsIn = db
      .prepare<[number, number], number>(`${sum} price_buckets WHERE bucket >= ? AND bucket <= ?`)
      .pluck();
  }

  /**
   * Reads every stored set into the cache at once (up to the cache's size), when the server
   * starts and before it listens: no search then waits for its sets to be read and decoded, and
   * none competes with a read-ahead still running. (It used to run a chunk per event-loop turn
   * while the first requests were served.) The 1M-alert bench database's 88 MB of sets take
   * about 0.2 s of the start (the bench's startup scenario times the start).
   */
  warm(stamp: () => unknown): void {
    this.sets.clear();
    this.setBytes = 0;
    this.stamp = stamp();
    for (const { term, docs } of this.allSets.iterate()) {
      if (this.setBytes + docs.byteLength > SET_CACHE_BYTES) break;
      this.keep(term, readDocs(docs));
    }
  }

  /** `stamp` names the data's state (Store.changeStamp): decoded sets are dropped when it moves. */
  count(f: AlertFilter, stamp: unknown): number | undefined {
    if (f.tag !== undefined || f.cateids !== undefined) return undefined;
    const priced = f.minPrice !== undefined || f.maxPrice !== undefined;
    const any = f.anyWords?.length ? f.anyWords : undefined;
    const none = f.noWords?.length ? f.noWords : undefined;
    if (priced) return any || none || f.cateid !== undefined ? undefined : this.priceTotal(f);
    const anyTerms = any?.map(singleToken);
    const noTerms = none?.map(singleToken);
    if (anyTerms?.includes(undefined) || noTerms?.includes(undefined)) return undefined;
    this.freshen(stamp);
    const sets = (terms: (string | undefined)[]) => terms.map((t) => this.set(t as string));
    const facet = f.cateid === undefined ? undefined : this.set(`c${f.cateid}`);
    return this.counter.count(
      anyTerms ? sets(anyTerms) : [facet ?? this.set("all")],
      anyTerms ? facet : undefined,
      noTerms ? sets(noTerms) : [],
    );
  }

  /**
   * Alerts priced in [min, max]: the whole-unit buckets that lie inside (b >= min, b + 1 <= max),
   * plus the distinct prices of the partial ends; a range within a unit or two is summed from
   * the distinct prices alone.
   */
  private priceTotal(f: AlertFilter): number {
    const min = f.minPrice ?? Number.NEGATIVE_INFINITY;
    const max = f.maxPrice ?? Number.POSITIVE_INFINITY;
    const first = Math.ceil(min);
    const last = Math.floor(max) - 1;
    if (first > last) return this.pricesIn.get(min, max) as number;
    let total = this.bucketsIn.get(first, last) as number;
    if (min < first) total += this.pricesFromBelow.get(min, first) as number;
    if (Number.isFinite(max)) total += this.pricesIn.get(last + 1, max) as number;
    return total;
  }

  /** A term's set as of the data state `stamp` names (word-search.ts); callers must not change it. */
  termSet(term: string, stamp: unknown): DocSet {
    this.freshen(stamp);
    return this.set(term);
  }

  private freshen(stamp: unknown): void {
    if (stamp !== this.stamp) {
      this.sets.clear();
      this.setBytes = 0;
      this.stamp = stamp;
    }
  }

  /** A term's set, decoded once per data state; callers must not change it. */
  private set(term: string): DocSet {
    let set = this.sets.get(term);
    if (set === undefined) {
      set = readDocs(this.termDocs.get(term) ?? new Uint8Array(0));
      this.keep(term, set);
    }
    return set;
  }

  private keep(term: string, set: DocSet): void {
    const bytes = set instanceof Uint32Array ? set.byteLength : set.words.byteLength;
    if (this.setBytes + bytes > SET_CACHE_BYTES) {
      this.sets.clear();
      this.setBytes = 0;
    }
    this.sets.set(term, set);
    this.setBytes += bytes;
  }
}
