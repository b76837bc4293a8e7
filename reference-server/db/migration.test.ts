/**
 * Schema migration 4 (the count index) on a database that already holds alerts, as a server
 * upgraded in place meets it: every alert gets a doc number and the token sets, price counts and
 * price buckets come out as a fresh generation writes them (compared by alert id, since a doc
 * number is only the order the alerts were numbered in).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { decodeDocs } from "./doc-sets.ts";
import { connect, openDatabase } from "./open.ts";

const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;

type Db = ReturnType<typeof connect>;

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

describe("schema migration 4 on a database holding alerts", () => {
  let dir: string;
  let dbPath: string;
  let fresh: ReturnType<typeof countIndex>;
  let alerts: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "dealkit-migration-"));
    dbPath = join(dir, "data.sqlite");
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
    fresh = countIndex(db);
    alerts = (db.prepare("SELECT count(*) AS n FROM alerts").get() as { n: number }).n;
    // Back to schema 3: no doc numbers, no count index (what a 1.1 server left on disk).
    db.exec(`
      ALTER TABLE alerts DROP COLUMN doc;
      DROP TABLE term_docs; DROP TABLE price_counts; DROP TABLE price_buckets;
    `);
    db.pragma("user_version = 3");
    db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("numbers every alert once and rebuilds the index a generation writes", () => {
    const db = connect(dbPath);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(4);
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
