import type { Database } from "better-sqlite3";
import type { AlertRow } from "../data/records.ts";
import { DECODED_URL_SQL, encodeUrlSql } from "./site-url.ts";
import { indexFacetsAndOrder, numberAlerts, rewriteAlerts } from "./write.ts";

/**
 * Migrations, applied in order; `PRAGMA user_version` records how many ran. Append, never edit:
 * a database created by an older server must upgrade by running only the new steps.
 */
const MIGRATIONS: (string | ((db: Database) => void))[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  -- seq is the internal row id (the FTS rowid); id is the site's alert id.
  CREATE TABLE alerts (
    seq INTEGER PRIMARY KEY,
    id INTEGER NOT NULL UNIQUE,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    datetime TEXT NOT NULL,
    shorttime TEXT NOT NULL,
    shijianchuo INTEGER NOT NULL,
    cateid TEXT NOT NULL,
    catename TEXT NOT NULL,
    comments INTEGER NOT NULL,
    louzhu TEXT NOT NULL,
    louzhuregtime TEXT,
    url TEXT NOT NULL,
    yuanurl TEXT,
    price REAL,
    tags TEXT NOT NULL DEFAULT '[]'
  );
  CREATE INDEX alerts_time ON alerts (shijianchuo DESC, id DESC);
  CREATE INDEX alerts_cate_time ON alerts (cateid, shijianchuo DESC, id DESC);
  CREATE INDEX alerts_price ON alerts (price) WHERE price IS NOT NULL;

  CREATE TABLE alert_tags (tag TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (tag, seq)) WITHOUT ROWID;

  -- Position bigrams of title and content (see grams.ts); contentless: the text lives in alerts,
  -- and a row is deleted with the 'delete' command and its original tokens (write.ts).
  CREATE VIRTUAL TABLE alert_grams USING fts5(title, content, tokenize = 'ascii', content = '');

  CREATE TABLE zdm_items (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    price REAL NOT NULL,
    mall_name TEXT NOT NULL,
    brand TEXT,
    category_name TEXT NOT NULL,
    pic TEXT NOT NULL,
    posttime INTEGER NOT NULL,
    url TEXT NOT NULL,
    content TEXT NOT NULL
  );
  CREATE INDEX zdm_time ON zdm_items (posttime DESC, id DESC);

  CREATE TABLE activity_categories (id TEXT PRIMARY KEY, name TEXT NOT NULL);
  CREATE TABLE activities (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    desc TEXT NOT NULL,
    cate TEXT NOT NULL,
    h5 TEXT NOT NULL,
    pic TEXT NOT NULL,
    start_time TEXT NOT NULL,
    end_time TEXT
  );
  CREATE INDEX activities_cate ON activities (cate, id DESC);

  -- Keys are never stored: only an HMAC-SHA256 of the key under a per-account salt.
  CREATE TABLE accounts (
    uid INTEGER PRIMARY KEY,
    key_salt BLOB NOT NULL,
    key_hash BLOB NOT NULL,
    follow_words TEXT NOT NULL,
    push_cates TEXT NOT NULL,
    push_words TEXT NOT NULL
  );
  `,
  // 2: alerts keyed by publication time (write.ts timeKey), so that search walks the FTS index
  // newest first without sorting; a facets column (all, c<cateid>) so that a category and
  // block words are answered inside the index; rank indexes for small and large windows.
  (db) => {
    db.exec(`
      ALTER TABLE alerts RENAME TO alerts_v1;
      DROP INDEX alerts_time; DROP INDEX alerts_cate_time; DROP INDEX alerts_price;
      DROP TABLE alert_grams;
      DELETE FROM alert_tags;
      CREATE TABLE alerts (
        seq INTEGER PRIMARY KEY,
        id INTEGER NOT NULL UNIQUE,
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        datetime TEXT NOT NULL,
        shorttime TEXT NOT NULL,
        shijianchuo INTEGER NOT NULL,
        cateid TEXT NOT NULL,
        catename TEXT NOT NULL,
        comments INTEGER NOT NULL,
        louzhu TEXT NOT NULL,
        louzhuregtime TEXT,
        url TEXT NOT NULL,
        yuanurl TEXT,
        price REAL,
        tags TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX alerts_cate_seq ON alerts (cateid, seq);
      CREATE INDEX alerts_window ON alerts (shijianchuo, comments, id);
      CREATE INDEX alerts_rank ON alerts (comments, shijianchuo, id);
      CREATE INDEX alerts_price ON alerts (price) WHERE price IS NOT NULL;
      CREATE VIRTUAL TABLE alert_grams USING fts5(title, content, facets, tokenize = 'ascii', content = '');
    `);
    const old = db.prepare<[], AlertRow & { seq: number }>(
      "SELECT * FROM alerts_v1 ORDER BY shijianchuo, id",
    );
    rewriteAlerts(
      db,
      [...old.all()].map(({ seq: _, ...row }) => row),
    );
    db.exec("DROP TABLE alerts_v1");
  },
  // 3: the number of alerts holding each index token (filled from the FTS vocabulary then);
  // migration 5 drops it, so it is created empty here.
  "CREATE TABLE gram_docs (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID",
  // 4: exact totals whose cost does not follow the matches (doc-index.ts): every alert gets a
  // dense doc number, each index token the set of alerts holding it, each price and each whole
  // unit of price its alert count.
  (db) => {
    db.exec(`
      ALTER TABLE alerts ADD COLUMN doc INTEGER;
      CREATE TABLE term_docs (term TEXT PRIMARY KEY, docs BLOB NOT NULL);
      CREATE TABLE price_counts (price REAL PRIMARY KEY, alerts INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE price_buckets (bucket INTEGER PRIMARY KEY, alerts INTEGER NOT NULL);
    `);
    numberAlerts(db);
  },
  // 5: search from the token sets alone (word-search.ts), in under half the space: the FTS
  // index (its positions were 40% of the file), gram_docs (a set's cardinality is its count)
  // and alert_tags go; tags become facet tokens (t<tag>) and the category feed walks the
  // category's set, so alerts_cate_seq goes too; an alert's row is found by its doc number.
  // URLs are stored without the site's prefix (site-url.ts; `url` reads as before).
  (db) => {
    db.exec(`
      DROP TABLE IF EXISTS alert_grams; DROP TABLE IF EXISTS gram_docs; DROP TABLE alert_tags;
      DROP INDEX alerts_cate_seq;
      CREATE UNIQUE INDEX alerts_doc ON alerts (doc);
      ALTER TABLE alerts RENAME COLUMN url TO site_url;
      UPDATE alerts SET site_url = ${encodeUrlSql("site_url")};
      ALTER TABLE alerts ADD COLUMN url TEXT GENERATED ALWAYS AS (${DECODED_URL_SQL}) VIRTUAL;
    `);
    indexFacetsAndOrder(db);
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to the current schema; refuses one written by a newer server. */
export function migrate(db: Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema ${current} is newer than this server's ${MIGRATIONS.length}`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      const step = MIGRATIONS[v];
      if (typeof step === "function") step(db);
      else db.exec(step as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
