import type { Database, Statement } from "better-sqlite3";
import type { TypedFastBitSet } from "typedfastbitset";
import { containsWord } from "../../src/rules/words.ts";
import type { AlertRow } from "../data/records.ts";
import { asBitset, type DocSet, unionOf } from "./doc-sets.ts";
import { walkDescending } from "./doc-walk.ts";
import { categoryToken, charPrefix, LATE_TOKEN, singleToken, tagToken, wordGrams } from "./grams.ts";
import type { AlertFilter } from "./store.ts";

/** A token's set of doc numbers (FastCounts.termSet: decoded once per data state; never changed). */
export type TermSet = (term: string) => DocSet;

/** What a candidate's check reads of its row. */
type Checked = Pick<AlertRow, "title" | "content" | "price" | "cateid"> & { seq: number };

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
 * bigrams' sets hold every alert containing it, and some that hold the bigrams apart), a price
 * range, a category list.
 */
interface Plan {
  /** The candidates: any of `union`, within each of `required`, outside each of `excluded`. */
  union: DocSet[];
  required: DocSet[];
  excluded: DocSet[];
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
  private readonly termsFrom: Statement<[string, string], string>;

  constructor(
    db: Database,
    private readonly termSet: TermSet,
  ) {
    this.checkedRow = db.prepare<[number], Checked>(
      "SELECT seq, title, content, price, cateid FROM alerts WHERE doc = ?",
    );
    this.seqOf = db.prepare<[number], number>("SELECT seq FROM alerts WHERE doc = ?").pluck();
    this.rowOf = db.prepare<[number], AlertRow>("SELECT * FROM alerts WHERE seq = ?");
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
    const candidates = unionOf(plan.union);
    for (const set of plan.required) candidates.intersection(asBitset(set));
    if (plan.excluded.length) candidates.difference(unionOf(plan.excluded));
    let n = 0;
    candidates.forEach((doc) => {
      if (!plan.needsRow(doc)) n++;
      else {
        const row = this.checkedRow.get(doc);
        if (row && plan.accepts(doc, row)) n++;
      }
    });
    return n;
  }

  /** The page's rows, newest first. */
  page(f: AlertFilter, limit: number, offset: number): AlertRow[] {
    const plan = this.plan(f);
    const late = this.termSet(LATE_TOKEN);
    const lateDocs =
      (late instanceof Uint32Array ? late.length : late.size()) > 0 ? asBitset(late) : undefined;
    const wanted = offset + limit;
    const hits: number[] = [];
    walkDescending(plan.union, plan.required, plan.excluded, (doc) => {
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
      if (!lateDocs) return false;
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
      ? unionOf((any ?? []).filter((w) => w.exact).map((w) => w.docs))
      : undefined;
    const inexactNone = inexact(none);
    const { minPrice: min, maxPrice: max, cateids } = f;
    const rowFilter = min !== undefined || max !== undefined || cateids !== undefined;
    const contains = (row: Checked, w: { word: string }) =>
      containsWord(row.title, w.word) || containsWord(row.content, w.word);
    return {
      union,
      required,
      excluded,
      needsRow: (doc) =>
        rowFilter ||
        (exactAny !== undefined && !exactAny.has(doc)) ||
        inexactNone.some((w) => w.docs.has(doc)),
      accepts: (doc, row) => {
        if (exactAny && !exactAny.has(doc) && !inexactAny.some((w) => contains(row, w))) return false;
        if (inexactNone.some((w) => w.docs.has(doc) && contains(row, w))) return false;
        if (min !== undefined && (row.price === null || row.price < min)) return false;
        if (max !== undefined && (row.price === null || row.price > max)) return false;
        return cateids === undefined || cateids.includes(row.cateid);
      },
    };
  }

  private wordDocs(word: string): WordDocs {
    const single = singleToken(word);
    if (single !== undefined) return { word, exact: true, docs: this.termSet(single) };
    const grams = wordGrams(word);
    if (grams.length === 0) {
      const prefix = charPrefix(word);
      // Hex digits never contain "x" or "y": the range holds exactly the tokens of the prefix.
      const terms = this.termsFrom.all(prefix, `${prefix.slice(0, -1)}y`);
      return { word, exact: true, docs: unionOf(terms.map(this.termSet)) };
    }
    const docs = unionOf([this.termSet(grams[0] as string)]);
    for (const g of new Set(grams.slice(1))) docs.intersection(asBitset(this.termSet(g)));
    return { word, exact: false, docs };
  }
}
