/**
 * Schema migrations 5 (search from the token sets) and 4 (the count index) on a database that
 * already holds alerts, as a server upgraded in place meets it: every alert gets a doc number
 * and the token sets, price counts and price buckets come out as a fresh generation writes them
 * (compared by alert id, since a doc number is only the order the alerts were numbered in).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { decodeDocs } from "./doc-sets.ts";
import { connect, openDatabase } from "./open.ts";
import { SCHEMA_VERSION } from "./schema.ts";

const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;

type Db = ReturnType<typeof connect>;

/** Back to the plain `url` column of schema 1-4 (migration 5 stores it encoded: site-url.ts). */
const PLAIN_URL = `
  ALTER TABLE alerts ADD COLUMN plain_url TEXT; UPDATE alerts SET plain_url = url;
  ALTER TABLE alerts DROP COLUMN url; ALTER TABLE alerts DROP COLUMN site_url;
  ALTER TABLE alerts RENAME COLUMN plain_url TO url;
`;

/** Per token, the ids of the alerts in its set; per price and per bucket, the counts. */
function countIndex(db: Db) {
  const idOfDoc = new Map(
    db
      .prepare<[], { doc: number; id: number }>("SELECT doc, id FROM alerts")
      .all()
      .map((r) => [r.doc, r.id]),
  );
  const terms: Record<string, number[]> = {};
  for (const { term, docs } of db
    .prepare<[], { term: string; docs: Buffer }>("SELECT term, docs FROM term_docs")
    .all())
    terms[term] = [...decodeDocs(docs).array()].map((d) => idOfDoc.get(d) ?? -1).sort((a, b) => a - b);
  return {
    terms,
    prices: db.prepare("SELECT price, alerts FROM price_counts ORDER BY price").all(),
    buckets: db.prepare("SELECT bucket, alerts FROM price_buckets ORDER BY bucket").all(),
  };
}

/** A generated database on disk (schema SCHEMA_VERSION), with its count index and alert count. */
async function generated(dir: string, dbPath: string) {
  const spec = await loadSpec();
  const { db } = openDatabase({
    dbPath,
    size: 400,
    seed: 9,
    nowSeconds: NOW,
    categories: spec.categories.items,
    zoneOffset: 8 * 3600,
    cacheDir: join(dir, "cache"),
  });
  return db;
}

describe("schema migration 5 on a database a schema-4 server wrote", () => {
  let dir: string;
  let dbPath: string;
  let fresh: ReturnType<typeof countIndex>;
  let urls: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "dealkit-migration-"));
    dbPath = join(dir, "data.sqlite");
    const db = await generated(dir, dbPath);
    fresh = countIndex(db);
    urls = db.prepare<[], string>("SELECT url FROM alerts ORDER BY id").pluck().all();
    expect(urls[0]).toMatch(/^https:\/\/new\.xianbao\.fun\//);
    // Schema 4: the FTS index, gram_docs, alert_tags and alerts_cate_seq; no tag tokens, no
    // late set (the FTS index and gram_docs are left empty: migration 5 only drops them).
    db.exec(`
      ${PLAIN_URL}
      DROP INDEX alerts_doc; CREATE INDEX alerts_cate_seq ON alerts (cateid, seq);
      CREATE TABLE alert_tags (tag TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (tag, seq)) WITHOUT ROWID;
      INSERT INTO alert_tags SELECT DISTINCT j.value, a.seq FROM alerts a, json_each(a.tags) j;
      CREATE TABLE gram_docs (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
      CREATE VIRTUAL TABLE alert_grams USING fts5(title, content, facets, tokenize = 'ascii', content = '');
      DELETE FROM term_docs WHERE term LIKE 't%' OR term = 'late';
    `);
    db.pragma("user_version = 4");
    db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("drops the FTS index and its companions, and adds the tag sets a generation writes", () => {
    const db = connect(dbPath);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      const tables = db.prepare("SELECT name FROM sqlite_schema").pluck().all();
      for (const gone of ["alert_grams", "gram_docs", "alert_tags", "alerts_cate_seq"])
        expect(tables).not.toContain(gone);
      expect(tables).toContain("alerts_doc");
      expect(db.prepare("SELECT url FROM alerts ORDER BY id").pluck().all()).toEqual(urls);
      expect(
        db.prepare("SELECT count(*) FROM alerts WHERE substr(site_url, 1, 1) = char(1)").pluck().get(),
      ).toBe(urls.length);
      const migrated = countIndex(db);
      expect(Object.keys(migrated.terms).filter((t) => t.startsWith("t")).length).toBeGreaterThan(3);
      expect(migrated).toEqual(fresh);
    } finally {
      db.close();
    }
  });
});

describe("schema migration 4 on a database holding alerts", () => {
  let dir: string;
  let dbPath: string;
  let fresh: ReturnType<typeof countIndex>;
  let alerts: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "dealkit-migration-"));
    dbPath = join(dir, "data.sqlite");
    const db = await generated(dir, dbPath);
    fresh = countIndex(db);
    alerts = (db.prepare("SELECT count(*) AS n FROM alerts").get() as { n: number }).n;
    // Back to schema 3: no doc numbers, no count index (what a 1.1 server left on disk), and
    // migration 5's drops undone (its tables and index as a schema-3 server had them).
    db.exec(`
      ${PLAIN_URL}
      DROP INDEX alerts_doc; ALTER TABLE alerts DROP COLUMN doc;
      DROP TABLE term_docs; DROP TABLE price_counts; DROP TABLE price_buckets;
      CREATE INDEX alerts_cate_seq ON alerts (cateid, seq);
      CREATE TABLE alert_tags (tag TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (tag, seq)) WITHOUT ROWID;
      CREATE TABLE gram_docs (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
    `);
    db.pragma("user_version = 3");
    db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("numbers every alert once and rebuilds the index a generation writes", () => {
    const db = connect(dbPath);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      const docs = db.prepare<[], { doc: number | null }>("SELECT doc FROM alerts").all();
      expect(docs).toHaveLength(alerts);
      expect(docs.every((r) => r.doc !== null)).toBe(true);
      expect(new Set(docs.map((r) => r.doc)).size).toBe(alerts);
      const migrated = countIndex(db);
      expect(Object.keys(migrated.terms).length).toBeGreaterThan(100);
      expect(migrated).toEqual(fresh);
    } finally {
      db.close();
    }
  });
});
