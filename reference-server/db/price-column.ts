import type { Database, Statement } from "better-sqlite3";
import { DOC_EPOCH_KEY } from "./write.ts";

/** Connections that have the SQL function the whole read calls per row (see PriceColumn). */
const withPut = new WeakSet<Database>();
/** The column being read whole: the function writes into it (the read is synchronous). */
let filling: PriceColumn | undefined;

/**
 * Every alert's price by doc number, in memory (NaN: no price, or no such doc), so that a search
 * with a price range checks a candidate without reading its row: a price range alone walks the
 * docs newest first (word-search.ts) and stops at the page, as a word does; a price with words
 * or a category checks the words' candidates here instead of reading each row (a few hundred
 * thousand rows at a million alerts). 8 bytes a doc: 8 MB at a million alerts.
 *
 * Kept in step with the data by doc number: docs are handed out in ascending order and never
 * reused, and a row's price never changes under its doc (a replaced alert gets a new doc), so
 * when the data changes only the docs from the last one read up are read (alerts_doc). A doc
 * removed since keeps its price here: callers only ask about docs of the token sets, which hold
 * the alerts that exist. When doc numbers start again (DOC_EPOCH_KEY), it is read whole.
 */
export class PriceColumn {
  private prices = new Float64Array(0);
  /** Docs below this one have been read. */
  private next = 0;
  private epoch: string | undefined;
  private stamp: unknown;
  private readonly docState: Statement<[], { key: string; value: string }>;
  private readonly pricesFrom: Statement<[number], [number, number]>;
  private readonly everyPrice: Statement<[], number>;

  constructor(private readonly db: Database) {
    this.docState = db.prepare(
      `SELECT key, value FROM meta WHERE key IN ('next_doc', '${DOC_EPOCH_KEY}')`,
    ) as Statement<[], { key: string; value: string }>;
    this.pricesFrom = db
      .prepare<[number], [number, number]>(
        "SELECT doc, price FROM alerts INDEXED BY alerts_doc WHERE doc >= ? AND price IS NOT NULL",
      )
      .raw();
    // The whole read calls a function per priced row from inside SQLite's scan, instead of
    // building a row object per alert: about 0.6 s instead of 1 s at a million alerts.
    if (!withPut.has(db)) {
      db.function("price_column_put", { deterministic: false, directOnly: true }, (doc, price) => {
        filling?.put(doc as number, price as number);
        return 1;
      });
      withPut.add(db);
    }
    this.everyPrice = db
      .prepare<[], number>(
        "SELECT count(price_column_put(doc, price)) FROM alerts NOT INDEXED WHERE price IS NOT NULL AND doc IS NOT NULL",
      )
      .pluck();
  }

  /**
   * Prices by doc as of the data state `stamp` names (Store.changeStamp). The array is replaced
   * when it grows: take it again after the stamp moves; never change it.
   */
  at(stamp: unknown): Float64Array {
    if (stamp !== this.stamp) {
      this.db.transaction(() => this.catchUp())();
      this.stamp = stamp;
    }
    return this.prices;
  }

  private catchUp(): void {
    const state = new Map(this.docState.all().map((r) => [r.key, r.value]));
    const epoch = state.get(DOC_EPOCH_KEY);
    const next = Number(state.get("next_doc") ?? 0);
    if (epoch !== this.epoch || next < this.next) {
      this.prices = new Float64Array(0);
      this.next = 0;
      this.epoch = epoch;
    }
    if (next <= this.next) return;
    this.grow(next);
    if (this.next === 0) {
      // Read through SQLite's own cache, not the memory map: mapped, every page of the table
      // would stay in the server's resident set (+320 MB at a million alerts) for one read.
      const mapped = this.db.pragma("mmap_size", { simple: true }) as number;
      this.db.pragma("mmap_size = 0");
      filling = this;
      try {
        this.everyPrice.get();
      } finally {
        filling = undefined;
        this.db.pragma(`mmap_size = ${mapped}`);
      }
    } else for (const [doc, price] of this.pricesFrom.iterate(this.next)) this.put(doc, price);
    this.next = next;
  }

  private grow(docs: number): void {
    if (docs <= this.prices.length) return;
    const grown = new Float64Array(Math.max(docs, Math.ceil(this.prices.length * 1.5)));
    grown.fill(Number.NaN, this.prices.length);
    grown.set(this.prices);
    this.prices = grown;
  }

  /** Public for the SQL function only (price_column_put). */
  put(doc: number, price: number): void {
    this.grow(doc + 1);
    this.prices[doc] = price;
  }
}
