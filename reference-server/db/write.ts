import type { Database } from "better-sqlite3";
import type { ActivityCategoryRow, ActivityRow, AlertRow, Dataset, ZdmRow } from "../data/records.ts";
import { IndexChanges } from "./doc-index.ts";
import { decodeDocs } from "./doc-sets.ts";
import { facetTokens, LATE_TOKEN, tagToken } from "./grams.ts";
import { encodeUrl } from "./site-url.ts";

/** What a write takes: any of the dataset's parts; alerts may be made as they are read (generateStream). */
type Rows = Partial<Omit<Dataset, "alerts">> & {
  alerts?: Iterable<AlertRow>;
  /**
   * The gram lists of `alerts`' titles and contents (gram-lists.ts), doc 0 being the first
   * alert, collected as they were made (generate-worker.ts); read after the alerts. The writer
   * then does not collect them itself.
   */
  alertGrams?: () => Iterable<[string, Uint32Array]>;
};

/** Writes rows, replacing any row with the same id (imports may repeat items). One transaction. */
export function writeDataset(db: Database, data: Rows, fresh = false): void {
  db.transaction(() => {
    const index = new IndexChanges(db, fresh);
    writeRows(db, data, fresh, index);
    index.flush();
  })();
}

/**
 * writeDataset without the count index's flush: for a write in batches (a streamed import),
 * where the caller runs `index.flush()` once after the last batch, inside the same transaction.
 */
export function writeRows(db: Database, data: Rows, fresh: boolean, index: IndexChanges): void {
  const alerts = alertWriter(db, fresh, index, data.alertGrams !== undefined);
  const zdm = db.prepare(
    `INSERT OR REPLACE INTO zdm_items (id, title, price, mall_name, brand, category_name, pic, posttime, url, content)
     VALUES (@id, @title, @price, @mall_name, @brand, @category_name, @pic, @posttime, @url, @content)`,
  );
  const activity = db.prepare(
    `INSERT OR REPLACE INTO activities (id, name, desc, cate, h5, pic, start_time, end_time)
     VALUES (@id, @name, @desc, @cate, @h5, @pic, @start_time, @end_time)`,
  );
  const category = db.prepare("INSERT OR IGNORE INTO activity_categories (id, name) VALUES (@id, @name)");
  db.transaction(() => {
    let first: number | undefined;
    for (const row of data.alerts ?? []) {
      const doc = alerts.write(row);
      first ??= doc;
    }
    alerts.finish();
    if (data.alertGrams) index.addLists(shifted(data.alertGrams(), first ?? 0));
    for (const row of data.zdm ?? []) zdm.run(row satisfies ZdmRow);
    for (const row of data.activityCategories ?? []) category.run(row satisfies ActivityCategoryRow);
    for (const row of data.activities ?? []) activity.run(row satisfies ActivityRow);
  })();
}

/** Lists of docs counted from 0, moved to start at `first`. */
function* shifted(lists: Iterable<[string, Uint32Array]>, first: number): Generator<[string, Uint32Array]> {
  for (const [term, docs] of lists) {
    if (first !== 0) for (let i = 0; i < docs.length; i++) docs[i] = (docs[i] as number) + first;
    yield [term, docs];
  }
}

/**
 * The row key of an alert orders alerts newest-last: publication second, then the low 20 bits
 * of the id, so "newest first" is the key descending and needs no sort. A shift in time moves every alert alike and keeps the order.
 * Safe up to the year 2242 (2^53 / 2^20 seconds).
 */
export function timeKey(shijianchuo: number, id: number): number {
  return shijianchuo * 1_048_576 + (id % 1_048_576);
}

type Indexed = {
  seq: number;
  doc: number | null;
  title: string;
  content: string;
  cateid: string;
  price: number | null;
  tags: string;
};

/** The columns alertRemover needs, for a SELECT. */
const INDEXED = "seq, doc, title, content, cateid, price, tags";

/**
 * Removes one stored alert: its row and its index entries. `index` is null only in migration 2,
 * which runs before alerts had doc numbers (migration 4 numbers them).
 */
function alertRemover(db: Database, index: IndexChanges | null): (old: Indexed) => void {
  const removeAlert = db.prepare("DELETE FROM alerts WHERE seq = ?");
  return (old) => {
    removeAlert.run(old.seq);
    if (index && old.doc !== null) index.remove(old.doc, old, [LATE_TOKEN]);
  };
}

/**
 * `fresh`: the table is known to be empty (a generation), so no row can need replacing.
 * An alert whose key is below the newest stored one's joins the LATE_TOKEN set: doc numbers
 * are handed out in write order, and search walks them as newest first (word-search.ts).
 */
function alertWriter(
  db: Database,
  fresh: boolean,
  index: IndexChanges | null,
  /** The texts' grams are added to the index by the caller (Rows.alertGrams). */
  gramsGiven = false,
): { write: (row: AlertRow) => number | undefined; finish: () => void } {
  const find = db.prepare<[number], Indexed>(
    `SELECT ${index ? INDEXED : "seq, NULL AS doc, title, content, cateid, price, tags"} FROM alerts WHERE id = ?`,
  );
  const taken = db.prepare<[number], { seq: number }>("SELECT seq FROM alerts WHERE seq = ?");
  const remove = alertRemover(db, index);
  const { insertRow, finish } = alertInserter(db, fresh, index !== null);
  // The newest key ever written: removals only lower the true one, which keeps "late" safe.
  let newest = (db.prepare("SELECT max(seq) FROM alerts").pluck().get() as number | null) ?? -1;
  const write = (row: AlertRow) => {
    const old = fresh ? undefined : find.get(row.id);
    if (old) remove(old);
    let seq = timeKey(row.shijianchuo, row.id);
    // Two alerts of one second whose ids agree in their low 20 bits: take the next free key.
    if (!fresh) while (taken.get(seq)) seq++;
    if (index) {
      const d = index.newDoc();
      insertRow(row, seq, d);
      if (!gramsGiven) {
        index.addText(d, row.title);
        index.addText(d, row.content);
      }
      const facets = facetTokens(row.cateid, row.tags);
      if (seq < newest) facets.push(LATE_TOKEN);
      index.add(d, row, facets);
      if (seq > newest) newest = seq;
      return d;
    }
    insertRow(row, seq);
    if (seq > newest) newest = seq;
    return undefined;
  };
  return { write, finish };
}

/**
 * Inserts alert rows with their key (and doc number, `withDoc`), in the column layout of the
 * schema it finds; `finish` writes what a fresh write still holds back.
 */
function alertInserter(
  db: Database,
  fresh: boolean,
  withDoc: boolean,
): { insertRow: (r: AlertRow, seq: number, doc?: number) => void; finish: () => void } {
  // Since schema 5 the URL is stored encoded (site-url.ts); migration 2 writes the plain column.
  const encoded = db.prepare("SELECT 1 FROM pragma_table_xinfo('alerts') WHERE name = 'site_url'").get();
  const url = encoded ? "site_url" : "url";
  // Positional parameters: binding by name looks up every key of an object per row.
  const columns = `seq, id, title, content, datetime, shorttime, shijianchuo, cateid, catename, comments,
       louzhu, louzhuregtime, ${url}, yuanurl, price, tags${withDoc ? ", doc" : ""}`;
  const tuple = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${withDoc ? ", ?" : ""})`;
  const insert = db.prepare(`INSERT INTO alerts (${columns}) VALUES ${tuple}`);
  // A fresh write (nothing read back between rows) inserts INSERT_BATCH rows per statement:
  // one statement step instead of INSERT_BATCH, a tenth less of a generation's main thread.
  const insertMany = fresh
    ? db.prepare(`INSERT INTO alerts (${columns}) VALUES ${Array(INSERT_BATCH).fill(tuple).join(", ")}`)
    : undefined;
  let pending: unknown[] = [];
  let pendingRows = 0;
  const insertRow = (r: AlertRow, seq: number, doc?: number) => {
    const values = [
      seq,
      r.id,
      r.title,
      r.content,
      r.datetime,
      r.shorttime,
      r.shijianchuo,
      r.cateid,
      r.catename,
      r.comments,
      r.louzhu,
      r.louzhuregtime,
      encoded ? encodeUrl(r.url) : r.url,
      r.yuanurl,
      r.price,
      r.tags,
    ];
    if (doc !== undefined) values.push(doc);
    if (!insertMany) {
      insert.run(values);
      return;
    }
    for (const v of values) pending.push(v);
    if (++pendingRows < INSERT_BATCH) return;
    insertMany.run(pending);
    pending = [];
    pendingRows = 0;
  };
  // The rows still pending when the write ends, one statement each.
  const finish = () => {
    const width = pending.length / (pendingRows || 1);
    for (let i = 0; i < pendingRows; i++) insert.run(pending.slice(i * width, (i + 1) * width));
    pending = [];
    pendingRows = 0;
  };
  return { insertRow, finish };
}

/** Rows per INSERT statement in a fresh write (17 parameters each, SQLite allows 32766). */
const INSERT_BATCH = 64;

/** Adds new alerts as they arrive (live data), changing only their tokens' sets. */
export function addAlerts(db: Database, rows: AlertRow[]): void {
  const index = new IndexChanges(db);
  const alerts = alertWriter(db, false, index);
  db.transaction(() => {
    for (const row of rows) alerts.write(row);
    alerts.finish();
    index.flush();
  })();
}

/** Removes the alerts published before `before` (Unix seconds): live data's retention. Returns how many. */
export function removeAlertsBefore(db: Database, before: number): number {
  const old = db
    .prepare<[number], Indexed>(`SELECT ${INDEXED} FROM alerts WHERE shijianchuo < ?`)
    .all(before);
  if (old.length === 0) return 0;
  const index = new IndexChanges(db);
  const remove = alertRemover(db, index);
  db.transaction(() => {
    for (const row of old) remove(row);
    index.flush();
  })();
  return old.length;
}

/** Re-indexes every alert under its time key (schema migration 2: before doc numbers existed). */
export function rewriteAlerts(db: Database, rows: Iterable<AlertRow>): void {
  const alerts = alertWriter(db, false, null);
  for (const row of rows) alerts.write(row);
  alerts.finish();
}

/** Gives every stored alert a doc number and builds the count index from them (schema migration 4). */
export function numberAlerts(db: Database): void {
  const rows = db.prepare<[], Indexed>(`SELECT ${INDEXED} FROM alerts ORDER BY seq`).all();
  const index = new IndexChanges(db);
  const number = db.prepare("UPDATE alerts SET doc = ? WHERE seq = ?");
  for (const row of rows) {
    const doc = index.newDoc();
    number.run(doc, row.seq);
    index.add(doc, row);
  }
  index.flush();
}

/** Late docs beyond this share of the alerts make a bulk write renumber them (renumberIfLate). */
const LATE_SHARE = 0.01;
const RENUMBER_CHUNK = 20_000;

/**
 * After a bulk write (an import): when more than LATE_SHARE of the alerts were written after a
 * newer one (a file not in time order), gives every alert a new doc number in key order and
 * rebuilds the count index from the rows, so that search walks stop at the page again
 * (word-search.ts). Inside the caller's transaction; the sets are rebuilt whole, so doc numbers
 * start again from 0. Returns whether it renumbered.
 */
export function renumberIfLate(db: Database): boolean {
  const late = db.prepare("SELECT docs FROM term_docs WHERE term = ?").pluck().get(LATE_TOKEN) as
    | Buffer
    | undefined;
  const alerts = db.prepare("SELECT count(*) FROM alerts").pluck().get() as number;
  if (!late || decodeDocs(late).size() <= alerts * LATE_SHARE) return false;
  db.exec(`
    DELETE FROM term_docs; DELETE FROM price_counts; DELETE FROM price_buckets;
    DELETE FROM meta WHERE key = 'next_doc'; UPDATE alerts SET doc = NULL;
  `);
  docsRestarted(db);
  const index = new IndexChanges(db, true);
  const chunk = db.prepare<[number], Indexed>(
    `SELECT ${INDEXED} FROM alerts WHERE seq > ? ORDER BY seq LIMIT ${RENUMBER_CHUNK}`,
  );
  const number = db.prepare("UPDATE alerts SET doc = ? WHERE seq = ?");
  for (let rows = chunk.all(-1); rows.length > 0; rows = chunk.all((rows.at(-1) as Indexed).seq)) {
    for (const row of rows) {
      const doc = index.newDoc();
      number.run(doc, row.seq);
      index.addText(doc, row.title);
      index.addText(doc, row.content);
      index.add(doc, row, facetTokens(row.cateid, row.tags));
    }
  }
  index.flush();
  return true;
}

/**
 * Puts every stored alert into its tag tokens' sets and, when its key is below an alert numbered
 * before it, into the LATE_TOKEN set (schema migration 5). Adding a doc a set holds is no change.
 */
export function indexFacetsAndOrder(db: Database): void {
  const rows = db.prepare<[], { doc: number; seq: number; tags: string }>(
    "SELECT doc, seq, tags FROM alerts ORDER BY doc",
  );
  const index = new IndexChanges(db);
  let newest = -1;
  for (const row of rows.iterate()) {
    const tokens = (JSON.parse(row.tags) as string[]).map(tagToken);
    if (row.seq < newest) tokens.push(LATE_TOKEN);
    else newest = row.seq;
    index.addTokens(row.doc, tokens);
  }
  index.flush();
}

/**
 * After a bulk write (a generation or an import): ANALYZE refreshes the planner's statistics,
 * then the WAL is folded into the database file.
 */
export function settleAfterBulkWrite(db: Database): void {
  db.exec("ANALYZE");
  // The bulk write sits in the WAL (as large as the database after a generation): pages read
  // from the WAL bypass the memory map and cost a lookup each, and the file is twice its size
  // until the next automatic checkpoint, which the one write never triggers.
  db.pragma("wal_checkpoint(TRUNCATE)");
}

/**
 * Runs a bulk write with the table's secondary indexes dropped, and builds them afterwards from
 * their stored definitions: one sort per index instead of a B-tree insert per row per index.
 * Constraint indexes (UNIQUE, PRIMARY KEY) stay.
 */
export function withIndexesBuiltAfter(db: Database, table: string, write: () => void): void {
  const indexes = db
    .prepare<[string], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
    )
    .all(table);
  db.transaction(() => {
    for (const { name } of indexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
    write();
    for (const { sql } of indexes) db.exec(sql);
  })();
}

/** Removes every alert, zdm item and activity (before a regeneration); keeps accounts. */
export function clearData(db: Database): void {
  db.exec(`
    DELETE FROM alerts;
    DELETE FROM term_docs; DELETE FROM price_counts; DELETE FROM price_buckets; DELETE FROM meta WHERE key = 'next_doc';
    DELETE FROM zdm_items; DELETE FROM activities; DELETE FROM activity_categories;
  `);
  docsRestarted(db);
}

/**
 * The meta key counting how often doc numbers started again from 0 (clearData, renumberIfLate):
 * otherwise a doc is never reused, so what a reader keeps by doc (the price column) stays true
 * until this count moves.
 */
export const DOC_EPOCH_KEY = "doc_epoch";

/** Records, inside the writer's transaction, that doc numbers now name other alerts. */
function docsRestarted(db: Database): void {
  db.prepare(
    `INSERT INTO meta (key, value) VALUES ('${DOC_EPOCH_KEY}', '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
  ).run();
}
