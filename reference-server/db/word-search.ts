import type { Database, Statement } from "better-sqlite3";
import { TypedFastBitSet } from "typedfastbitset";
import { containsWord } from "../../src/rules/words.ts";
import type { AlertRow } from "../data/records.ts";
import { asBitset, type DocSet, unionInPlace } from "./doc-sets.ts";
import { walkDescending } from "./doc-walk.ts";
import { categoryToken, charPrefix, LATE_TOKEN, singleToken, tagToken, wordGrams } from "./grams.ts";
import type { AlertFilter } from "./store.ts";

/** A token's set of doc numbers (FastCounts.termSet: decoded once per data state; never changed). */
export type TermSet = (term: string) => DocSet;

/** Every alert's price by doc number, NaN for none (PriceColumn.at, as of the sets' data state). */
export type Prices = () => Float64Array;

/**
 * The columns of an answer's row (AlertRow), not the whole row: seq, doc and the stored
 * site_url would be read and converted to JavaScript for every row of every page for nothing.
 */
const ANSWER_COLUMNS =
  "id, title, content, datetime, shorttime, shijianchuo, cateid, catename, comments, louzhu, louzhuregtime, url, yuanurl, price, tags";

/** An answer's row with its doc number (rowsByDoc). */
export type DocRow = AlertRow & { doc: number };

/** What a candidate's check reads of its row. */
type Checked = Pick<AlertRow, "title" | "content" | "cateid"> & { seq: number };

/**
 * A word's alerts: exactly `docs` (1 or 2 characters: a stored set, never changed), or among
 * `docs`, checked on the text (3 or more: a new bitset).
 */
type WordDocs =
  | { word: string; exact: true; docs: DocSet }
  | { word: string; exact: false; docs: TypedFastBitSet };

/**
 * The alerts a filter selects, as token sets (grams.ts) narrowed to candidates, plus the check
 * a candidate's row must pass when the sets alone are not exact: a word of 3+ characters (its
 * bigrams' sets hold every alert containing it, and some that hold the bigrams apart), a
 * category list. A price range is checked on the price column (price-column.ts), not the row.
 */
interface Plan {
  /** The candidates: any of `union`, within each of `required`, outside each of `excluded`. */
  union: DocSet[];
  required: DocSet[];
  excluded: DocSet[];
  /** A check of the candidate without its row (the price range), before any other. */
  keeps?: (doc: number) => boolean;
  /** Whether this candidate's row must be read and checked. */
  needsRow: (doc: number) => boolean;
  accepts: (doc: number, row: Checked) => boolean;
}

/**
 * Search from the token sets (term_docs) instead of a full-text index: every filter holding a
 * word, a block word, a category or a tag. Counts are set cardinalities when the sets are
 * exact, else a check of each candidate needing one; pages walk the candidates' doc numbers
 * from the highest down and read rows by doc number (alerts_doc), so a page costs its rows.
 *
 * Newest first is key order (write.ts timeKey), and doc numbers are handed out in write order:
 * the same order except for alerts written after a newer one (an import, a replacement), which
 * the writer puts in the LATE_TOKEN set. Every other doc's key is above the keys of all lower
 * docs, so once such a doc is passed with enough hits at or above its key, the page is complete.
 */
export class WordSearch {
  private readonly checkedRow: Statement<[number], Checked>;
  private readonly seqOf: Statement<[number], number>;
  private readonly rowOf: Statement<[number], AlertRow>;
  /** A page's rows from their doc numbers (a JSON array), newest first. */
  private readonly rowsOf: Statement<[string], AlertRow>;
  private readonly docRowsOf: Statement<[string], DocRow>;
  private readonly termsFrom: Statement<[string, string], string>;
  /** Bitsets reused from search to search (unionInto); `taken` of them are in use. */
  private readonly scratch: TypedFastBitSet[] = [];
  private taken = 0;

  constructor(
    db: Database,
    private readonly termSet: TermSet,
    private readonly prices: Prices,
  ) {
    this.checkedRow = db.prepare<[number], Checked>(
      "SELECT seq, title, content, cateid FROM alerts WHERE doc = ?",
    );
    this.seqOf = db.prepare<[number], number>("SELECT seq FROM alerts WHERE doc = ?").pluck();
    this.rowOf = db.prepare<[number], AlertRow>(`SELECT ${ANSWER_COLUMNS} FROM alerts WHERE seq = ?`);
    this.rowsOf = db.prepare<[string], AlertRow>(
      `SELECT ${ANSWER_COLUMNS} FROM alerts WHERE doc IN (SELECT value FROM json_each(?)) ORDER BY seq DESC`,
    );
    this.docRowsOf = db.prepare<[string], DocRow>(
      `SELECT doc, ${ANSWER_COLUMNS} FROM alerts WHERE doc IN (SELECT value FROM json_each(?))`,
    );
    this.termsFrom = db
      .prepare<[string, string], string>("SELECT term FROM term_docs WHERE term >= ? AND term < ?")
      .pluck();
  }

  /** Whether the filter has a set to start from (otherwise the table is read newest first). */
  static handles(f: AlertFilter): boolean {
    return !!f.anyWords?.length || !!f.noWords?.length || f.cateid !== undefined || f.tag !== undefined;
  }

  count(f: AlertFilter): number {
    const plan = this.plan(f);
    // A new bitset, changed in place (a cached set never is).
    const candidates = this.unionInto(plan.union);
    for (const set of plan.required) candidates.intersection(asBitset(set));
    if (plan.excluded.length) candidates.difference(this.unionInto(plan.excluded));
    let n = 0;
    const keeps = plan.keeps;
    candidates.forEach((doc) => {
      if (keeps && !keeps(doc)) return;
      if (!plan.needsRow(doc)) n++;
      else {
        const row = this.checkedRow.get(doc);
        if (row && plan.accepts(doc, row)) n++;
      }
    });
    return n;
  }

  /**
   * The page's rows, newest first. Any filter: one without words, category or tag walks every
   * alert (the "all" set), which costs what the walk passes before the page is full.
   */
  page(f: AlertFilter, limit: number, offset: number): AlertRow[] {
    const docs = this.pageDocs(f, limit, offset);
    const rows = docs && this.rowsOfDocs(docs);
    if (rows) return rows;
    return this.pageBySeq(this.plan(f), limit, offset, asBitset(this.termSet(LATE_TOKEN)));
  }

  /**
   * The page's doc numbers, newest first, when doc order is newest first (no late docs), so that
   * the page is the walk's first hits and no key is looked up. Undefined otherwise, and when a
   * hit has no row (the sets were read at another data state than the rows): the walk by key
   * (page) skips such docs. A caller that keeps what it made of a doc's row (search's
   * serialized rows) reads only the rows it lacks (rowsOfDocs).
   */
  pageDocs(f: AlertFilter, limit: number, offset: number): number[] | undefined {
    const late = this.termSet(LATE_TOKEN);
    if ((late instanceof Uint32Array ? late.length : late.size()) !== 0) return undefined;
    const all = this.termSet("all");
    const docs =
      !WordSearch.handles(f) && f.cateids === undefined && !(all instanceof Uint32Array)
        ? this.priceRangeDocs(f, all, offset + limit)
        : this.docsInDocOrder(this.plan(f), offset + limit);
    return docs?.slice(offset);
  }

  /**
   * Rows of `docs` (as pageDocs gives them) in one statement, newest first: the order of `docs`;
   * undefined when one has no row (the sets were read at another data state than the rows).
   */
  rowsOfDocs(docs: number[]): AlertRow[] | undefined {
    if (docs.length === 0) return [];
    const rows = this.rowsOf.all(JSON.stringify(docs));
    return rows.length === docs.length ? rows : undefined;
  }

  /** Rows of `docs` with their doc numbers, in no promised order; none for a doc without a row. */
  rowsByDoc(docs: number[]): DocRow[] {
    return docs.length === 0 ? [] : this.docRowsOf.all(JSON.stringify(docs));
  }

  /** The walk's first `wanted` hits in doc order; undefined when a hit has no row. */
  private docsInDocOrder(plan: Plan, wanted: number): number[] | undefined {
    const { keeps, needsRow, accepts } = plan;
    const docs: number[] = [];
    let rowless = false;
    walkDescending(plan.union, plan.required, plan.excluded, (doc) => {
      if (keeps && !keeps(doc)) return true;
      if (!needsRow(doc)) docs.push(doc);
      else {
        const row = this.checkedRow.get(doc);
        if (!row) rowless = true;
        else if (accepts(doc, row)) docs.push(doc);
      }
      return !rowless && docs.length < wanted;
    });
    return rowless ? undefined : docs;
  }

  /**
   * A price range alone (or no filter), without late docs: the price column read from the
   * highest doc down, each doc in range checked against the alerts that exist (the "all" set).
   * A few nanoseconds a doc, where the general walk calls a check per alert it passes.
   */
  private priceRangeDocs(f: AlertFilter, all: TypedFastBitSet, wanted: number): number[] {
    const prices = this.prices();
    const low = f.minPrice ?? Number.NEGATIVE_INFINITY;
    const high = f.maxPrice ?? Number.POSITIVE_INFINITY;
    const exists = all.words;
    const docs: number[] = [];
    for (let doc = Math.min(prices.length, exists.length * 32) - 1; doc >= 0; doc--) {
      const price = prices[doc] as number;
      if (price >= low && price <= high && ((exists[doc >>> 5] as number) & (1 << (doc & 31))) !== 0) {
        docs.push(doc);
        if (docs.length >= wanted) break;
      }
    }
    return docs;
  }

  /** The walk with late docs: hits by key, until no doc below can be newer than the page. */
  private pageBySeq(plan: Plan, limit: number, offset: number, lateDocs: TypedFastBitSet): AlertRow[] {
    const keeps = plan.keeps;
    const wanted = offset + limit;
    const hits: number[] = [];
    walkDescending(plan.union, plan.required, plan.excluded, (doc) => {
      if (keeps && !keeps(doc)) return true;
      let seq: number | undefined;
      if (plan.needsRow(doc)) {
        const row = this.checkedRow.get(doc);
        seq = row?.seq;
        if (row && plan.accepts(doc, row)) hits.push(row.seq);
      } else {
        seq = this.seqOf.get(doc);
        if (seq !== undefined) hits.push(seq);
      }
      if (seq === undefined || hits.length < wanted) return true;
      // Every lower doc's key is below this one's unless this one is late itself.
      if (lateDocs.has(doc)) return true;
      let above = 0;
      for (const h of hits) if (h >= seq) above++;
      return above < wanted;
    });
    hits.sort((a, b) => b - a);
    return hits.slice(offset, wanted).map((seq) => this.rowOf.get(seq) as AlertRow);
  }

  private plan(f: AlertFilter): Plan {
    // Every bitset of the previous search is free again (count and page each plan first).
    this.taken = 0;
    const any = f.anyWords?.length ? f.anyWords.map((w) => this.wordDocs(w)) : undefined;
    const none = f.noWords?.length ? f.noWords.map((w) => this.wordDocs(w)) : undefined;
    const facets = [
      f.cateid === undefined ? undefined : categoryToken(f.cateid),
      f.tag === undefined ? undefined : tagToken(f.tag),
    ].filter((t): t is string => t !== undefined);
    const union = any ? any.map((w) => w.docs) : [this.termSet(facets.shift() ?? "all")];
    const required = facets.map((t) => this.termSet(t));
    const excluded = (none ?? []).filter((w) => w.exact).map((w) => w.docs);
    const inexact = (words: WordDocs[] | undefined) => (words ?? []).flatMap((w) => (w.exact ? [] : [w]));
    const inexactAny = inexact(any);
    const exactAny = inexactAny.length
      ? this.unionInto((any ?? []).filter((w) => w.exact).map((w) => w.docs))
      : undefined;
    const inexactNone = inexact(none);
    const { minPrice: min, maxPrice: max, cateids } = f;
    const contains = (row: Checked, w: { word: string }) =>
      containsWord(row.title, w.word) || containsWord(row.content, w.word);
    return {
      union,
      required,
      excluded,
      keeps: min === undefined && max === undefined ? undefined : this.priceRange(min, max),
      needsRow: (doc) =>
        cateids !== undefined ||
        (exactAny !== undefined && !exactAny.has(doc)) ||
        inexactNone.some((w) => w.docs.has(doc)),
      accepts: (doc, row) => {
        if (exactAny && !exactAny.has(doc) && !inexactAny.some((w) => contains(row, w))) return false;
        if (inexactNone.some((w) => w.docs.has(doc) && contains(row, w))) return false;
        return cateids === undefined || cateids.includes(row.cateid);
      },
    };
  }

  /** Whether a doc's price lies in [min, max] (an alert without a price never does: NaN). */
  private priceRange(min: number | undefined, max: number | undefined): (doc: number) => boolean {
    const prices = this.prices();
    const low = min ?? Number.NEGATIVE_INFINITY;
    const high = max ?? Number.POSITIVE_INFINITY;
    return (doc) => {
      const price = prices[doc] as number;
      return price >= low && price <= high;
    };
  }

  /**
   * A new union of the sets, in a bitset reused by the next search: a new one per word (a
   * prefix's union, a longer word's candidates) and per count was an array of maxDoc/32 words
   * (125 KB at a million alerts) per search, external memory that brings full collections on.
   * At most a few per search (words per parameter are bounded by the spec), each as long as the
   * longest set it held.
   */
  private unionInto(sets: DocSet[]): TypedFastBitSet {
    let out = this.scratch[this.taken];
    if (!out) {
      out = new TypedFastBitSet();
      this.scratch.push(out);
    }
    this.taken++;
    unionInPlace(out, sets);
    return out;
  }

  private wordDocs(word: string): WordDocs {
    const single = singleToken(word);
    if (single !== undefined) return { word, exact: true, docs: this.termSet(single) };
    const grams = wordGrams(word);
    if (grams.length === 0) {
      const prefix = charPrefix(word);
      // Hex digits never contain "x" or "y": the range holds exactly the tokens of the prefix.
      const terms = this.termsFrom.all(prefix, `${prefix.slice(0, -1)}y`);
      return { word, exact: true, docs: this.unionInto(terms.map(this.termSet)) };
    }
    const docs = this.unionInto([this.termSet(grams[0] as string)]);
    for (const g of new Set(grams.slice(1))) docs.intersection(asBitset(this.termSet(g)));
    return { word, exact: false, docs };
  }
}
