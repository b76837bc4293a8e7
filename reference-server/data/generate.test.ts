import { describe, expect, it } from "vitest";
import { windowRange } from "../../src/rules/windows.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { generate } from "./generate.ts";

const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;

describe("generator", async () => {
  const spec = await loadSpec();
  const options = {
    size: 3000,
    seed: 7,
    nowSeconds: NOW,
    categories: spec.categories.items,
    zoneOffset: 8 * 3600,
  };

  it("is deterministic: same options, same data; another seed, other data", () => {
    expect(generate(options)).toEqual(generate(options));
    expect(generate({ ...options, seed: 8 }).alerts[0]).not.toEqual(generate(options).alerts[0]);
  });

  it("gives every rank window entries, also a few minutes after local midnight", () => {
    // 00:05 in Shanghai: the jintian window is five minutes long.
    const justAfterMidnight = Date.UTC(2026, 10, 24, 16, 5) / 1000;
    for (const now of [NOW, justAfterMidnight]) {
      const { alerts } = generate({ ...options, nowSeconds: now });
      for (const act of Object.keys(spec.rankWindows.windows)) {
        const { from, to } = windowRange(spec.rankWindows, act, now);
        expect(
          alerts.filter((a) => a.shijianchuo >= from && a.shijianchuo <= to).length,
          act,
        ).toBeGreaterThan(0);
      }
      expect(Math.min(...alerts.map((a) => a.shijianchuo))).toBeGreaterThanOrEqual(now - 20 * 86_400);
    }
  });

  it("puts prices only on priced categories and covers every category", () => {
    const { alerts } = generate(options);
    const priced = new Set(spec.categories.items.filter((c) => c.priced).map((c) => c.id));
    for (const a of alerts) expect(a.price !== null, a.cateid).toBe(priced.has(a.cateid));
    expect(new Set(alerts.map((a) => a.cateid)).size).toBe(spec.categories.items.length);
  });

  it("makes zdm items and activities with https links", () => {
    const data = generate(options);
    expect(data.zdm.length).toBeGreaterThanOrEqual(30);
    for (const a of data.activities) expect(a.h5).toMatch(/^https:\/\//);
    expect(new Set(data.activities.map((a) => a.cate)).size).toBe(data.activityCategories.length);
  });
});
