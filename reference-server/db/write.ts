import type { Database } from "better-sqlite3";
import type { ActivityCategoryRow, ActivityRow, AlertRow, Dataset, ZdmRow } from "../data/records.ts";
import { IndexChanges } from "./doc-index.ts";
import { alertTokens, distinctTokens, facetTokens, gramTokens } from "./grams.ts";

export { facetTokens };

/** Writes rows, replacing any row with the same id (imports may repeat items). One transaction. */
export function writeDataset(db: Database, data: Partial<Dataset>, fresh = false): void {
  db.transaction(() => {
    const index = new IndexChanges(db, fresh);
    writeRows(db, data, fresh, index);
    index.flush();
    if (data.alerts?.length) refreshGramDocs(db);
  })();
}

/**
 * writeDataset without the gram_docs pass and the count index's flush: for a write in batches
 * (a streamed import), where the caller runs `index.flush()` and refreshGramDocs once after the
 * last batch, inside the same transaction.
 */
export function writeRows(db: Database, data: Partial<Dataset>, fresh: boolean, index: IndexChanges): void {
  const alert = alertWriter(db, fresh, index);
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
    for (const row of data.alerts ?? []) alert(row);
    for (const row of data.zdm ?? []) zdm.run(row satisfies ZdmRow);
    for (const row of data.activityCategories ?? []) category.run(row satisfies ActivityCategoryRow);
    for (const row of data.activities ?? []) activity.run(row satisfies ActivityRow);
  })();
}

/**
 * The row key of an alert orders alerts newest-last: publication second, then the low 20 bits
 * of the id. Search walks the FTS index in rowid order (ORDER BY rowid DESC is free there), so
 * "newest first" needs no sort. A shift in time moves every alert alike and keeps the order.
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
};

/** The columns alertRemover needs, for a SELECT. */
const INDEXED = "seq, doc, title, content, cateid, price";

/**
 * Removes one stored alert: its row, its index entries, its tags. `index` is null only in
 * migration 2, which runs before alerts had doc numbers (migration 4 numbers them).
 */
function alertRemover(db: Database, index: IndexChanges | null): (old: Indexed) => void {
  const removeAlert = db.prepare("DELETE FROM alerts WHERE seq = ?");
  // A contentless FTS5 row is removed by replaying the tokens it was indexed with.
  const removeGrams = db.prepare(
    "INSERT INTO alert_grams (alert_grams, rowid, title, content, facets) VALUES ('delete', ?, ?, ?, ?)",
  );
  const removeTags = db.prepare("DELETE FROM alert_tags WHERE seq = ?");
  return (old) => {
    removeAlert.run(old.seq);
    removeGrams.run(old.seq, gramTokens(old.title), gramTokens(old.content), facetTokens(old.cateid));
    removeTags.run(old.seq);
    if (index && old.doc !== null) index.remove(old.doc, old);
  };
}

/** `fresh`: the table is known to be empty (a generation), so no row can need replacing. */
function alertWriter(db: Database, fresh: boolean, index: IndexChanges | null): (row: AlertRow) => void {
  const find = db.prepare<[number], Indexed>(
    `SELECT ${index ? INDEXED : "seq, NULL AS doc, title, content, cateid, price"} FROM alerts WHERE id = ?`,
  );
  const taken = db.prepare<[number], { seq: number }>("SELECT seq FROM alerts WHERE seq = ?");
  const remove = alertRemover(db, index);
  const doc = index ? ", doc" : "";
  const insert = db.prepare(
    `INSERT INTO alerts (seq, id, title, content, datetime, shorttime, shijianchuo, cateid, catename, comments,
       louzhu, louzhuregtime, url, yuanurl, price, tags${doc})
     VALUES (@seq, @id, @title, @content, @datetime, @shorttime, @shijianchuo, @cateid, @catename, @comments,
       @louzhu, @louzhuregtime, @url, @yuanurl, @price, @tags${doc ? ", @doc" : ""})`,
  );
  const grams = db.prepare("INSERT INTO alert_grams (rowid, title, content, facets) VALUES (?, ?, ?, ?)");
  const tag = db.prepare("INSERT OR IGNORE INTO alert_tags (tag, seq) VALUES (?, ?)");
  return (row) => {
    const old = fresh ? undefined : find.get(row.id);
    if (old) remove(old);
    let seq = timeKey(row.shijianchuo, row.id);
    // Two alerts of one second whose ids agree in their low 20 bits: take the next free key.
    if (!fresh) while (taken.get(seq)) seq++;
    const titleGrams = gramTokens(row.title);
    const contentGrams = gramTokens(row.content);
    if (index) {
      const d = index.newDoc();
      insert.run({ ...row, seq, doc: d });
      index.add(d, row, distinctTokens(titleGrams, contentGrams, row.cateid));
    } else insert.run({ ...row, seq });
    grams.run(seq, titleGrams, contentGrams, facetTokens(row.cateid));
    for (const t of JSON.parse(row.tags) as string[]) tag.run(t, seq);
  };
}

/** Moves gram_docs by one document for each token of the alerts (live writes: no full pass). */
function countTokens(
  db: Database,
  rows: Pick<AlertRow, "title" | "content" | "cateid">[],
  delta: 1 | -1,
): void {
  const bump = db.prepare(
    "INSERT INTO gram_docs (term, docs) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs",
  );
  for (const row of rows) for (const term of alertTokens(row)) bump.run(term, delta);
  if (delta < 0) db.exec("DELETE FROM gram_docs WHERE docs <= 0");
}

/** Adds new alerts one at a time as they arrive (live data), keeping gram_docs exact without a full pass. */
export function addAlerts(db: Database, rows: AlertRow[]): void {
  const index = new IndexChanges(db);
  const write = alertWriter(db, false, index);
  db.transaction(() => {
    for (const row of rows) write(row);
    countTokens(db, rows, 1);
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
    countTokens(db, old, -1);
    index.flush();
  })();
  return old.length;
}

/** Re-indexes every alert under its time key (schema migration 2: before doc numbers existed). */
export function rewriteAlerts(db: Database, rows: Iterable<AlertRow>): void {
  const write = alertWriter(db, false, null);
  for (const row of rows) write(row);
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

/**
 * After a bulk write (a generation or an import): FTS5 leaves the index in many segments, and
 * every search then merges one doclist per segment; 'optimize' rewrites it as one (about 2 s at
 * 200k alerts), and ANALYZE refreshes the planner's statistics. Then the WAL is folded into
 * the database file.
 */
export function settleAfterBulkWrite(db: Database): void {
  db.exec("INSERT INTO alert_grams (alert_grams) VALUES ('optimize'); ANALYZE");
  // The bulk write and the rewrite sit in the WAL (as large as the database after a generation):
  // pages read from the WAL bypass the memory map and cost a lookup each, and the file is twice
  // its size until the next automatic checkpoint, which the one write never triggers.
  db.pragma("wal_checkpoint(TRUNCATE)");
}

/**
 * gram_docs: how many alerts hold each token, copied from the index's own vocabulary (fts5vocab
 * 'row', one pass over it: about 0.6 s at 200k alerts). Every write of alerts goes through
 * writeDataset or clearData, which keep it exact (or writeRows, followed by this).
 */
export function refreshGramDocs(db: Database): void {
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.alert_gram_vocab USING fts5vocab(main, alert_grams, 'row');
    DELETE FROM gram_docs;
    INSERT INTO gram_docs (term, docs) SELECT term, doc FROM temp.alert_gram_vocab;
  `);
}

/** Removes every alert, zdm item and activity (before a regeneration); keeps accounts. */
export function clearData(db: Database): void {
  db.exec(`
    DELETE FROM alerts; INSERT INTO alert_grams (alert_grams) VALUES ('delete-all'); DELETE FROM alert_tags;
    DELETE FROM gram_docs; DELETE FROM term_docs; DELETE FROM price_counts; DELETE FROM price_buckets; DELETE FROM meta WHERE key = 'next_doc';
    DELETE FROM zdm_items; DELETE FROM activities; DELETE FROM activity_categories;
  `);
}
