import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { generate } from "../data/generate.ts";
import { connect } from "./open.ts";
import { writeDataset } from "./write.ts";

describe("a fresh write (rows inserted many per statement)", async () => {
  const spec = await loadSpec();
  const now = Date.UTC(2026, 10, 25, 2, 30) / 1000;
  const data = generate({
    size: 3_000,
    seed: 11,
    nowSeconds: now,
    categories: spec.categories.items,
    zoneOffset: 8 * 3600,
  });

  // Sizes below, at and between whole statements, and one that leaves a partial last one.
  it.each([1, 63, 64, 130, 3_000])("stores what a row-by-row write stores (%i alerts)", (size) => {
    const alerts = data.alerts.slice(0, size);
    const [fresh, plain] = [connect(":memory:"), connect(":memory:")];
    writeDataset(fresh, { alerts }, true);
    writeDataset(plain, { alerts }, false);
    for (const sql of [
      "SELECT * FROM alerts ORDER BY seq",
      "SELECT * FROM term_docs ORDER BY term",
      "SELECT * FROM price_counts ORDER BY price",
      "SELECT * FROM meta ORDER BY key",
    ])
      expect(fresh.prepare(sql).raw().all()).toEqual(plain.prepare(sql).raw().all());
    expect(fresh.prepare("SELECT count(*) FROM alerts").pluck().get()).toBe(size);
  });
});
