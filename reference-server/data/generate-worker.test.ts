import type { Database } from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { decodeDocs } from "../db/doc-sets.ts";
import { connect } from "../db/open.ts";
import { writeDataset } from "../db/write.ts";
import { generate } from "./generate.ts";
import { generateInWorker } from "./generate-worker.ts";

const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;

describe("generateInWorker", async () => {
  const spec = await loadSpec();
  // Not a multiple of the thread's batch: a last short batch; more batches than it may run ahead.
  const options = {
    size: 20_001,
    seed: 7,
    nowSeconds: NOW,
    categories: spec.categories.items,
    zoneOffset: 8 * 3600,
  };

  it("gives generate's data, in the same order, the rest after the alerts", () => {
    const { alerts, rest } = generateInWorker(options);
    expect(() => rest()).toThrow(/read the alerts before the rest/);
    const read = [...alerts];
    expect({ alerts: read, ...rest() }).toEqual(generate(options));
  });

  it("collects the gram lists the writer would: the same index, also after earlier alerts (docs not from 0)", () => {
    const small = { ...options, size: 5_000 };
    const contents = (db: Database) => ({
      alerts: db.prepare("SELECT * FROM alerts ORDER BY seq").raw().all(),
      sets: db
        .prepare<[], { term: string; docs: Buffer }>("SELECT term, docs FROM term_docs ORDER BY term")
        .all()
        .map(({ term, docs }) => [term, decodeDocs(docs).array()]),
      prices: db.prepare("SELECT * FROM price_counts ORDER BY price").raw().all(),
      buckets: db.prepare("SELECT * FROM price_buckets ORDER BY bucket").raw().all(),
      meta: db.prepare("SELECT * FROM meta ORDER BY key").raw().all(),
    });
    const [plain, threaded] = [connect(":memory:"), connect(":memory:")];
    // Another seed's first alerts: doc numbers start above 0, and the ids they share are replaced.
    for (const db of [plain, threaded])
      writeDataset(db, { alerts: generate({ ...small, size: 50, seed: 8 }).alerts });
    writeDataset(plain, { alerts: generate(small).alerts });
    const { alerts, grams } = generateInWorker(small, true);
    writeDataset(threaded, { alerts, alertGrams: grams });
    const expected = contents(plain);
    expect(expected.sets.length).toBeGreaterThan(500);
    expect(contents(threaded)).toEqual(expected);
  });

  it("reports the thread's failure to the reader instead of waiting for it", () => {
    // No categories: the generator cannot pick one for the first alert.
    const { alerts } = generateInWorker({ ...options, categories: [] });
    expect(() => [...alerts]).toThrow(/generator thread failed/);
  });
});
