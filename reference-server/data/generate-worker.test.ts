import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
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

  it("reports the thread's failure to the reader instead of waiting for it", () => {
    // No categories: the generator cannot pick one for the first alert.
    const { alerts } = generateInWorker({ ...options, categories: [] });
    expect(() => [...alerts]).toThrow(/generator thread failed/);
  });
});
