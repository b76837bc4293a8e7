import type { Database, Statement } from "better-sqlite3";
import type { ActivityRow, AlertRow, ZdmRow } from "../data/records.ts";
import { FastCounts } from "./fast-count.ts";
import { PriceColumn } from "./price-column.ts";
import { type DocRow, WordSearch } from "./word-search.ts";

/** What an alert query may filter on; every field is optional and they combine with AND. */
export interface AlertFilter {
  /** Keep alerts whose title or content contains any of these words. */
  anyWords?: string[];
  /** Drop alerts whose title or content contains any of these words. */
  noWords?: string[];
  minPrice?: number;
  maxPrice?: number;
  cateid?: string;
  cateids?: string[];
  tag?: string;
}

/** Alerts are keyed by publication time (write.ts timeKey): newest first is the key, descending. */
const NEWEST_FIRST = "ORDER BY a.seq DESC";
const RANK_ORDER = "ORDER BY a.comments DESC, a.shijianchuo DESC, a.id DESC";
/** Windows at least this long are ranked by walking the rank index (most alerts fall inside). */
const LARGE_WINDOW_SECONDS = 86_400;
const COUNT_CACHE_SIZE = 1000;
/**
 * A row taken from the price index and sorted costs about this many docs walked newest first on
 * the price column (word-search.ts, price-column.ts): the index pays only for ranges so narrow
 * that the walk would pass most alerts to fill a page.
 */
const PRICE_INDEX_ROW_COST = 500;

interface Shape {
  page: Statement;
  count: Statement;
  /** A price range alone: the page through the price index and a sort (Store.alerts chooses). */
  byPrice?: Statement;
}
/** How often, at most, other connections' commits are looked for (Store.changeStamp). */
export const OTHER_COMMITS_CHECK_MS = 10;
/** Whether the state last read at `atMs` is read again at `nowMs` (also when the clock went back). */
const checkDue = (atMs: number, nowMs: number) => nowMs - atMs >= OTHER_COMMITS_CHECK_MS || nowMs < atMs;
/** Lets go of the key kept longest when `kept` holds `bound` keys (Maps and Sets iterate in insertion order). */
function makeRoom(kept: Map<string, unknown> | Set<string>, bound: number): void {
  if (kept.size >= bound) kept.delete(kept.keys().next().value as string);
}
/** Serialized answers kept per data state (rank windows, feeds, repeated searches). */
export const BODY_CACHE_SIZE = 256;
/** Keys of answers built once remembered per data state (Store.memo, "second build"): a few hundred KB. */
const BUILT_ONCE_SIZE = 4 * BODY_CACHE_SIZE;

/**
 * Every read the routes need, as prepared, parameterised statements. Statements whose WHERE
 * depends on which filters are given are built from fixed fragments and cached per shape.
 */
export class Store {
  private readonly shapes = new Map<string, Shape>();
  private readonly counts = new Map<string, number>();
  private countsStamp: unknown;
  private readonly dataVersion: Statement;
  private readonly ownChanges: Statement;
  /** PRAGMA data_version as last read, and when (clockMs). */
  private otherCommits: unknown;
  private otherCommitsAtMs = Number.NEGATIVE_INFINITY;
  /** The stamp last returned, and the two counts it names: the same string while nothing changed. */
  private stamp = "";
  /** servingStamp(): the stamp it last read, when (clockMs), and the writes announced by then. */
  private serving = "";
  private servingAtMs = Number.NEGATIVE_INFINITY;
  private announcedWrites = 0;
  private servingWrites = -1;
  private stampOwn: unknown;
  private stampOther: unknown;
  private readonly bodies = new Map<string, Buffer>();
  /** Keys built once in this data state and not kept (memo): the next build is kept. */
  private readonly builtOnce = new Set<string>();
  private bodiesStamp: unknown;
  private readonly feedAll: Statement<[number], AlertRow>;
  private readonly zdm: Statement<[number], ZdmRow>;
  private readonly rankSmall: Statement<[number, number, number], AlertRow>;
  private readonly rankLarge: Statement<[number, number, number], AlertRow>;
  private readonly activityPage: Statement;
  private readonly activityCount: Statement;
  private readonly activityCates: Statement<[], { id: string; name: string; count: number }>;
  private readonly fast: FastCounts;
  private readonly words: WordSearch;
  private readonly prices: PriceColumn;

  /**
   * `clockMs`: a clock in ms, for when the state is read again (the server passes its own,
   * injectable one); a clock set back counts as the interval having passed.
   */
  constructor(
    readonly db: Database,
    private readonly clockMs: () => number = () => performance.now(),
  ) {
    this.dataVersion = db.prepare("PRAGMA data_version").pluck();
    this.ownChanges = db.prepare("SELECT total_changes()").pluck();
    this.fast = new FastCounts(db);
    this.fast.warm(() => this.changeStamp());
    this.prices = new PriceColumn(db);
    this.prices.at(this.changeStamp());
    this.words = new WordSearch(
      db,
      (term) => this.fast.termSet(term, this.changeStamp()),
      () => this.prices.at(this.changeStamp()),
    );
    this.feedAll = db.prepare(`SELECT * FROM alerts a ${NEWEST_FIRST} LIMIT ?`);
    this.zdm = db.prepare("SELECT * FROM zdm_items ORDER BY posttime DESC, id DESC LIMIT ?");
    // A short window holds few alerts: take them from the time index (covering), sort, fetch.
    this.rankSmall = db.prepare(
      `SELECT * FROM alerts a WHERE a.seq IN (
         SELECT seq FROM alerts a INDEXED BY alerts_window WHERE a.shijianchuo BETWEEN ? AND ? ${RANK_ORDER} LIMIT ?
       ) ${RANK_ORDER}`,
    );
    // A long window holds most alerts: walk the rank index in rank order and stop at the limit.
    this.rankLarge = db.prepare(
      `SELECT * FROM alerts a INDEXED BY alerts_rank WHERE a.shijianchuo BETWEEN ? AND ? ${RANK_ORDER} LIMIT ?`,
    );
    // SQLite's lower() folds A-Z only: exactly the spec's substring-ci-latin matching.
    const activityWhere = `WHERE (@cate IS NULL OR a.cate = @cate)
      AND (@words IS NULL OR EXISTS (SELECT 1 FROM json_each(@words) w
        WHERE instr(lower(a.name), lower(w.value)) > 0 OR instr(lower(a.desc), lower(w.value)) > 0))`;
    this.activityPage = db.prepare(
      `SELECT * FROM activities a ${activityWhere} ORDER BY a.start_time DESC, a.id DESC LIMIT @limit OFFSET @offset`,
    );
    this.activityCount = db.prepare(`SELECT count(*) AS n FROM activities a ${activityWhere}`);
    this.activityCates = db.prepare(
      `SELECT c.id, c.name, count(a.id) AS count FROM activity_categories c
       LEFT JOIN activities a ON a.cate = c.id GROUP BY c.id ORDER BY c.rowid`,
    );
  }

  /**
   * A serialized answer built from the data, cached as UTF-8 bytes (a cached answer is sent
   * without encoding it again: rank-300 is 150 KB of mostly Chinese text) until any write to
   * the database (changeStamp). The key must name everything else the answer depends on,
   * including clock-derived bounds such as a rank window's from/to. Bounded: when full, the
   * answer kept longest makes room (emptying the map made every answer after it a rebuild).
   * `keepFrom` "second build" (a cache's "second hit" admission), for answers most of which are
   * built once and never asked for again (searches): one kept for the next 256 answers was alive
   * at the next young-generation collection, which moved it to the old generation, where its
   * 10 KB outside V8's heap waited for a full collection (bench/README.md, finding 14).
   */
  memo(
    key: string,
    build: () => string | Buffer,
    keepFrom: "first build" | "second build" = "first build",
  ): Buffer {
    const stamp = this.changeStamp();
    if (stamp !== this.bodiesStamp) {
      this.bodies.clear();
      this.builtOnce.clear();
      this.bodiesStamp = stamp;
    }
    let body = this.bodies.get(key);
    if (body === undefined) {
      const built = build();
      body = typeof built === "string" ? Buffer.from(built) : built;
      if (keepFrom === "second build" && !this.builtOnce.delete(key)) {
        makeRoom(this.builtOnce, BUILT_ONCE_SIZE);
        this.builtOnce.add(key);
        return body;
      }
      makeRoom(this.bodies, BODY_CACHE_SIZE);
      this.bodies.set(key, body);
    }
    return body;
  }

  /**
   * What the data's state is: this connection's writes (total_changes: the in-process freshness
   * shift, live arrivals, an import on this connection), seen at once and nearly free (≈ 0.6 µs);
   * and other connections' commits (data_version: an import from another process while serving),
   * checked at most every OTHER_COMMITS_CHECK_MS. The pragma takes a read lock and looks at the
   * WAL (≈ 6-9 µs); read once per event-loop turn it was the largest cost of a cached answer
   * beyond bare node:http, as a loaded server answers only one or two requests per turn. An
   * import by another process is therefore seen by every request from that long after its commit
   * on: answers, counts and bodies computed before it are served at most that long after it,
   * which no client can tell from the import committing a few ms later. Public: the server's
   * answer cache keys by it too. The same string is returned while nothing changed, so callers
   * compare it by identity.
   */
  changeStamp(): string {
    const nowMs = this.clockMs();
    if (checkDue(this.otherCommitsAtMs, nowMs)) {
      this.otherCommits = this.dataVersion.get();
      this.otherCommitsAtMs = nowMs;
    }
    const own = this.ownChanges.get();
    if (own !== this.stampOwn || this.otherCommits !== this.stampOther) {
      this.stampOwn = own;
      this.stampOther = this.otherCommits;
      this.stamp = `${own}:${this.otherCommits}`;
    }
    return this.stamp;
  }

  /**
   * The data state for answers to sockets, where a stamp per request was the largest cost of a
   * cached answer beyond bare node:http (≈ 2 µs: total_changes() with cold caches, bench/README.md):
   * changeStamp() read again when a write of this process was announced (announceWrite: live
   * arrivals and the freshness shift, made in timers, are seen by the next request), and otherwise
   * at most every OTHER_COMMITS_CHECK_MS. Any other write on this connection is seen as another
   * process's commit is: within that interval. Requests that do not come from a socket (app.inject
   * in tests, which may write between two requests without announcing) use changeStamp().
   */
  servingStamp(): string {
    const nowMs = this.clockMs();
    if (this.servingWrites !== this.announcedWrites || checkDue(this.servingAtMs, nowMs)) {
      this.serving = this.changeStamp();
      this.servingAtMs = nowMs;
      this.servingWrites = this.announcedWrites;
    }
    return this.serving;
  }

  /** A write of this process to the data, done: servingStamp() reads the state again. */
  announceWrite(): void {
    this.announcedWrites++;
  }

  latest(cateid: string | undefined, limit: number): AlertRow[] {
    return cateid === undefined ? this.feedAll.all(limit) : this.words.page({ cateid }, limit, 0);
  }

  latestZdm(limit: number): ZdmRow[] {
    return this.zdm.all(limit);
  }

  /** Alerts published in [from, to], by comments then newest. */
  rank(from: number, to: number, limit: number): AlertRow[] {
    return (to - from >= LARGE_WINDOW_SECONDS ? this.rankLarge : this.rankSmall).all(from, to, limit);
  }

  /**
   * One page of matching alerts, newest first. A price range alone (its `total` counted first)
   * is read whichever way costs less: walking the docs newest first on the price column until
   * the page is full (about (offset + limit) × alerts / total docs, nothing read but the page's
   * rows), or taking every match from the price index and sorting it (about `total` rows).
   */
  alerts(filter: AlertFilter, limit: number, offset = 0, total?: number): AlertRow[] {
    const way = this.pageWay(filter, limit, offset, total);
    if (way === "words") return this.words.page(filter, limit, offset);
    const { statements, params } = this.shape(filter);
    const statement = way === "price index" ? (statements.byPrice as Statement) : statements.page;
    return statement.all({ ...params, limit, offset }) as AlertRow[];
  }

  /**
   * The doc numbers of the page `alerts` would read (same arguments), newest first, when it is
   * read by doc number without late docs (WordSearch.pageDocs); undefined when it is read
   * another way. The rows are then read by rowsByDoc: a caller keeping what it made of a row
   * (per data state: changeStamp) reads only the rows it lacks.
   */
  alertDocs(filter: AlertFilter, limit: number, offset = 0, total?: number): number[] | undefined {
    if (this.pageWay(filter, limit, offset, total) !== "words") return undefined;
    return this.words.pageDocs(filter, limit, offset);
  }

  /** Rows of `docs` (alertDocs) with their doc numbers, in no promised order; none for a doc without a row. */
  rowsByDoc(docs: number[]): DocRow[] {
    return this.words.rowsByDoc(docs);
  }

  /**
   * How `alerts` reads a page (see there): by the token sets and the price column
   * (word-search.ts), through the price index and a sort, or the table newest first.
   */
  private pageWay(filter: AlertFilter, limit: number, offset: number, total: number | undefined) {
    if (WordSearch.handles(filter)) return "words";
    const { statements } = this.shape(filter);
    if (!statements.byPrice) return "table";
    const alerts = this.countAlerts({});
    const walk = ((offset + limit) * alerts) / Math.max(total ?? alerts, 1);
    return total === undefined || total * PRICE_INDEX_ROW_COST >= walk ? "words" : "price index";
  }

  /**
   * Totals are exact. Most come from the count index (fast-count.ts: set cardinalities, price
   * counts), whose cost follows the data's size, not the matches; filters with a word, category
   * or tag from the token sets (word-search.ts: a check per candidate where the sets are not
   * exact); the rest count every match in SQLite. Either way a total is cached until any write
   * (changeStamp), an import on this connection included. The time shift changes no membership,
   * but it is rare enough not to tell apart.
   */
  countAlerts(filter: AlertFilter): number {
    const stamp = this.changeStamp();
    if (stamp !== this.countsStamp) {
      this.counts.clear();
      this.countsStamp = stamp;
    }
    const cacheKey = JSON.stringify(filter);
    const cached = this.counts.get(cacheKey);
    if (cached !== undefined) return cached;
    const n =
      this.fast.count(filter, stamp) ??
      (WordSearch.handles(filter) ? this.words.count(filter) : this.tableCount(filter));
    makeRoom(this.counts, COUNT_CACHE_SIZE);
    this.counts.set(cacheKey, n);
    return n;
  }

  private tableCount(filter: AlertFilter): number {
    const { statements, params } = this.shape(filter);
    return (statements.count.get(params) as { n: number }).n;
  }

  activities(cate: string | undefined, words: string[] | undefined, limit: number, offset: number) {
    const params = { cate: cate ?? null, words: words?.length ? JSON.stringify(words) : null };
    return {
      rows: this.activityPage.all({ ...params, limit, offset }) as ActivityRow[],
      total: (this.activityCount.get(params) as { n: number }).n,
    };
  }

  activityCategories(): { id: string; name: string; count: number }[] {
    return this.activityCates.all();
  }

  /**
   * A filter without words, category or tag (WordSearch.handles): prices and category lists,
   * checked on the table read newest first.
   */
  private shape(filter: AlertFilter) {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.minPrice !== undefined) {
      where.push("a.price >= @mip");
      params.mip = filter.minPrice;
    }
    if (filter.maxPrice !== undefined) {
      where.push("a.price <= @mxp");
      params.mxp = filter.maxPrice;
    }
    if (filter.cateids !== undefined) {
      where.push("a.cateid IN (SELECT value FROM json_each(@cateids))");
      params.cateids = JSON.stringify(filter.cateids);
    }
    const key = where.join(" AND ");
    let statements = this.shapes.get(key);
    if (!statements) {
      statements = this.prepareShape(where);
      this.shapes.set(key, statements);
    }
    return { key, statements, params };
  }

  private prepareShape(where: string[]): Shape {
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    const priceOnly = where.length > 0 && where.every((w) => w.startsWith("a.price "));
    const page = (from: string) =>
      this.db.prepare(
        `SELECT a.* FROM alerts a ${from} ${clause} ${NEWEST_FIRST} LIMIT @limit OFFSET @offset`,
      );
    return {
      // The planner's guess from the statistics may take the index for a wide range (and
      // sort most alerts); the choice is made per query from the exact total instead.
      page: page(priceOnly ? "NOT INDEXED" : ""),
      count: this.db.prepare(`SELECT count(*) AS n FROM alerts a ${clause}`),
      ...(priceOnly ? { byPrice: page("INDEXED BY alerts_price") } : {}),
    };
  }
}
