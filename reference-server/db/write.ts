import type { Database } from "better-sqlite3";
import type { ActivityCategoryRow, ActivityRow, AlertRow, Dataset, ZdmRow } from "../data/records.ts";
import { gramTokens } from "./grams.ts";

/** Writes rows, replacing any row with the same id (imports may repeat items). One transaction. */
export function writeDataset(db: Database, data: Partial<Dataset>, fresh = false): void {
  const alert = alertWriter(db, fresh);
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

/** `fresh`: the table is known to be empty (a generation), so no row can need replacing. */
function alertWriter(db: Database, fresh: boolean): (row: AlertRow) => void {
  const find = db.prepare<[number], { seq: number; title: string; content: string }>(
    "SELECT seq, title, content FROM alerts WHERE id = ?",
  );
  const removeAlert = db.prepare("DELETE FROM alerts WHERE seq = ?");
  // A contentless FTS5 row is removed by replaying the tokens it was indexed with.
  const removeGrams = db.prepare(
    "INSERT INTO alert_grams (alert_grams, rowid, title, content) VALUES ('delete', ?, ?, ?)",
  );
  const removeTags = db.prepare("DELETE FROM alert_tags WHERE seq = ?");
  const insert = db.prepare(
    `INSERT INTO alerts (id, title, content, datetime, shorttime, shijianchuo, cateid, catename, comments,
       louzhu, louzhuregtime, url, yuanurl, price, tags)
     VALUES (@id, @title, @content, @datetime, @shorttime, @shijianchuo, @cateid, @catename, @comments,
       @louzhu, @louzhuregtime, @url, @yuanurl, @price, @tags)`,
  );
  const grams = db.prepare("INSERT INTO alert_grams (rowid, title, content) VALUES (?, ?, ?)");
  const tag = db.prepare("INSERT OR IGNORE INTO alert_tags (tag, seq) VALUES (?, ?)");
  return (row) => {
    const old = fresh ? undefined : find.get(row.id);
    if (old) {
      removeAlert.run(old.seq);
      removeGrams.run(old.seq, gramTokens(old.title), gramTokens(old.content));
      removeTags.run(old.seq);
    }
    const seq = Number(insert.run(row).lastInsertRowid);
    grams.run(seq, gramTokens(row.title), gramTokens(row.content));
    for (const t of JSON.parse(row.tags) as string[]) tag.run(t, seq);
  };
}

/** Removes every alert, zdm item and activity (before a regeneration); keeps accounts. */
export function clearData(db: Database): void {
  db.exec(`
    DELETE FROM alerts; INSERT INTO alert_grams (alert_grams) VALUES ('delete-all'); DELETE FROM alert_tags;
    DELETE FROM zdm_items; DELETE FROM activities; DELETE FROM activity_categories;
  `);
}
