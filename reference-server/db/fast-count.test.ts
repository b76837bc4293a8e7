import type { Database } from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containsWord } from "../../src/rules/words.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { makeAlert } from "../data/generate.ts";
import { Prng } from "../data/prng.ts";
import type { AlertRow } from "../data/records.ts";
import { generatedDb } from "../test/helpers.ts";
import { decodeDocs } from "./doc-sets.ts";
import { FastCounts } from "./fast-count.ts";
import { alertTokens, LATE_TOKEN } from "./grams.ts";
import type { AlertFilter } from "./store.ts";
import { addAlerts, removeAlertsBefore, writeDataset } from "./write.ts";

const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;
type Stored = AlertRow & { doc: number };

/** The total a filter must have, counted row by row from the spec's meaning of a word. */
function bruteForce(rows: AlertRow[], f: AlertFilter): number {
  const has = (a: AlertRow, w: string) => containsWord(a.title, w) || containsWord(a.content, w);
  return rows.filter(
    (a) =>
      (!f.anyWords?.length || f.anyWords.some((w) => has(a, w))) &&
      !f.noWords?.some((w) => has(a, w)) &&
      (f.minPrice === undefined || (a.price !== null && a.price >= f.minPrice)) &&
      (f.maxPrice === undefined || (a.price !== null && a.price <= f.maxPrice)) &&
      (f.cateid === undefined || a.cateid === f.cateid),
  ).length;
}

/**
 * The count index against a brute-force count: random queries of the bench's kinds (one word, OR
 * of 3, a word minus 2 block words, a price range; with and without a category), from words cut
 * out of the stored alerts (so most match), before and after live writes, replacements and
 * retention. Also each token's stored set equals the set recomputed from the rows.
 */
describe("exact totals from the count index", () => {
  let db: Database;
  let counts: FastCounts;
  let rows: () => Stored[];
  let words: string[];
  let stamp = 0;
  let spec: Awaited<ReturnType<typeof loadSpec>>;

  beforeAll(async () => {
    spec = await loadSpec();
    db = await generatedDb(800, 5);
    counts = new FastCounts(db);
    rows = () => db.prepare<[], Stored>("SELECT * FROM alerts").all();
    // Every 2-character substring of some titles: words that occur, a few in most alerts.
    const cut = new Set<string>(["无词", "PL", "pl"]);
    for (const a of rows().slice(0, 60)) {
      const chars = [...a.title];
      for (let i = 0; i + 1 < chars.length; i += 3) cut.add(`${chars[i]}${chars[i + 1]}`);
    }
    words = [...cut].sort();
  });
  afterAll(() => db.close());

  const filters = () => {
    const word = fc.constantFrom(...words);
    const cateid = fc.option(fc.constantFrom("10", "16", "23", "30"), { nil: undefined });
    return fc.oneof(
      fc.record({ anyWords: fc.array(word, { minLength: 1, maxLength: 1 }), cateid }),
      fc.record({ anyWords: fc.array(word, { minLength: 3, maxLength: 3 }), cateid }),
      fc.record({
        anyWords: fc.array(word, { minLength: 1, maxLength: 1 }),
        noWords: fc.array(word, { minLength: 2, maxLength: 2 }),
        cateid,
      }),
      fc.record({ noWords: fc.array(word, { minLength: 1, maxLength: 2 }), cateid }),
      fc.record({ cateid }),
      fc
        .tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 5, max: 300 }))
        .map(([low, span]): AlertFilter => ({ minPrice: low, maxPrice: low + span })),
      // Bounds in cents: partial units at either end of the whole-unit buckets.
      fc
        .tuple(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 30_000 }))
        .map(([low, span]): AlertFilter => ({ minPrice: low / 100, maxPrice: (low + span) / 100 })),
      fc.record({ minPrice: fc.constantFrom(0.01, 9.9, 50) }),
      fc.record({ maxPrice: fc.constantFrom(0.1, 1, 500) }),
    );
  };

  const checkTotals = (seed: number) => {
    const all = rows();
    fc.assert(
      fc.property(filters(), (f: AlertFilter) => {
        expect(counts.count(f, stamp), JSON.stringify(f)).toBe(bruteForce(all, f));
      }),
      { seed, numRuns: 300 },
    );
  };

  const checkSets = () => {
    const expected = new Map<string, number[]>();
    for (const a of rows())
      for (const t of alertTokens(a)) {
        const docs = expected.get(t) ?? [];
        docs.push(a.doc);
        expected.set(t, docs);
      }
    const all = db.prepare<[], { term: string; docs: Buffer }>("SELECT term, docs FROM term_docs").all();
    // The late set (alerts written after a newer one: a replacement) holds only alerts that exist.
    const late = all.find((s) => s.term === LATE_TOKEN);
    const docs = new Set(rows().map((a) => a.doc));
    for (const doc of late ? decodeDocs(late.docs).array() : [])
      expect(docs.has(doc), `late doc ${doc}`).toBe(true);
    const stored = all.filter((s) => s !== late);
    expect(stored.map((s) => s.term).sort()).toEqual([...expected.keys()].sort());
    for (const s of stored)
      expect(decodeDocs(s.docs).array(), s.term).toEqual((expected.get(s.term) ?? []).sort((x, y) => x - y));
    // The price counts (a price range alone is totalled from them) against the rows too.
    const grouped = (key: (price: number) => number) =>
      db
        .prepare<[], [number, number]>(
          `SELECT price, count(*) FROM alerts WHERE price IS NOT NULL GROUP BY price ORDER BY price`,
        )
        .raw()
        .all()
        .reduce(
          (m, [price, n]) => m.set(key(price), (m.get(key(price)) ?? 0) + n),
          new Map<number, number>(),
        );
    const table = (sql: string) => new Map(db.prepare<[], [number, number]>(sql).raw().all());
    expect(table("SELECT price, alerts FROM price_counts ORDER BY price")).toEqual(grouped((p) => p));
    expect(table("SELECT bucket, alerts FROM price_buckets ORDER BY bucket")).toEqual(grouped(Math.floor));
  };

  it("answers random queries like the brute force, on generated data", () => {
    checkTotals(25);
    checkSets();
  });

  it("stays exact through live arrivals, replacements and retention", () => {
    const rng = new Prng(9);
    const cates = spec.categories.items;
    const before = rows();
    const maxId = Math.max(...before.map((a) => a.id));
    // Arrivals, one transaction each as the live feed writes them.
    for (let i = 1; i <= 40; i++)
      addAlerts(db, [
        makeAlert(rng, { nowSeconds: NOW, zoneOffset: 8 * 3600 }, rng.pick(cates), maxId + i, NOW),
      ]);
    // A re-imported alert whose text and price changed.
    const changed = { ...(before[0] as Stored) };
    changed.title = `${words[0]}${words[1]}`;
    changed.price = changed.price === null ? null : 12.34;
    const { doc: _doc, ...row } = changed;
    writeDataset(db, { alerts: [row] });
    // Retention: the oldest alerts leave.
    const times = before.map((a) => a.shijianchuo).sort((a, b) => a - b);
    expect(removeAlertsBefore(db, times[200] as number)).toBeGreaterThan(0);
    stamp++;
    checkTotals(26);
    checkSets();
  });

  it("stays exact through one bulk write repeating ids (an import file or a live batch): the last row wins", () => {
    const before = rows();
    const strip = ({ doc: _doc, ...row }: Stored): AlertRow => row;
    const [same, changed, priced] = [before[1], before[2], before.find((a) => a.price !== null)].map((a) =>
      strip(a as Stored),
    ) as [AlertRow, AlertRow, AlertRow];
    const fresh = strip({ ...(before[3] as Stored), id: Math.max(...before.map((a) => a.id)) + 1 });
    const count = () => db.prepare("SELECT count(*) FROM alerts").pluck().get() as number;
    const stored = count();
    writeDataset(db, {
      alerts: [
        // The same row twice, a stored id with other words then its first words again.
        same,
        same,
        { ...changed, title: `${words[0]}${words[2]}`, content: `${words[3]}` },
        changed,
        // A stored priced alert and a new id, each three times with other words and prices.
        { ...priced, title: `${words[1]}`, price: 3.5 },
        { ...fresh, title: `${words[4]}`, price: fresh.price === null ? null : 77.25 },
        { ...priced, title: `${words[5]}${words[0]}`, price: 420 },
        { ...fresh, title: `${words[2]}${words[6]}` },
        { ...priced, title: `${words[0]}`, price: 18.75 },
        { ...fresh, title: `${words[1]}${words[3]}`, content: "", price: fresh.price === null ? null : 0.5 },
      ],
    });
    expect(count()).toBe(stored + 1);
    const byId = (id: number) => rows().find((a) => a.id === id);
    expect(byId(priced.id)).toMatchObject({ title: words[0], price: 18.75 });
    expect(byId(fresh.id)).toMatchObject({ title: `${words[1]}${words[3]}`, content: "" });
    stamp++;
    checkTotals(28);
    checkSets();
  });

  it("answers alike from the sets read ahead at start (warm), without reading them again", () => {
    const warmed = new FastCounts(db);
    warmed.warm(() => "state");
    const all = rows();
    // Emptied inside a savepoint: every count below must come from what warm() read.
    db.exec("SAVEPOINT emptied; DELETE FROM term_docs");
    try {
      fc.assert(
        fc.property(filters(), (f: AlertFilter) => {
          expect(warmed.count(f, "state"), JSON.stringify(f)).toBe(bruteForce(all, f));
        }),
        { seed: 27, numRuns: 200 },
      );
    } finally {
      db.exec("ROLLBACK TO emptied; RELEASE emptied");
    }
  });
});
