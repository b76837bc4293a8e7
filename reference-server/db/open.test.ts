import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { openDatabase } from "./open.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-open-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;

/** Starting from the cached image of a generated database is the same as generating now. */
describe("generated database image cache", async () => {
  const spec = await loadSpec();
  const base = {
    dbPath: ":memory:",
    size: 400,
    seed: 5,
    categories: spec.categories.items,
    zoneOffset: 8 * 3600,
  };
  const snapshot = (nowSeconds: number, cacheDir: string) => {
    const { db, data } = openDatabase({ ...base, nowSeconds, cacheDir });
    const alerts = db
      .prepare("SELECT id, shijianchuo, datetime, shorttime, title, comments FROM alerts ORDER BY seq")
      .all();
    const activities = db.prepare("SELECT id, start_time, end_time FROM activities ORDER BY id").all();
    const zdm = db.prepare("SELECT id, posttime FROM zdm_items ORDER BY id").all();
    db.close();
    return { data, rows: { alerts, activities, zdm } };
  };

  it("writes the image once and, loaded two days later, equals a fresh generation at that time", () => {
    const cache = join(dir, "cache");
    const first = snapshot(NOW, cache);
    expect(first.data).toBe("generated");
    expect(readdirSync(cache).filter((f) => f.endsWith(".sqlite"))).toHaveLength(1);
    const later = NOW + 2 * 86_400;
    const fromCache = snapshot(later, cache);
    const fresh = snapshot(later, join(dir, "empty"));
    expect(fromCache.rows).toEqual(fresh.rows);
    // And backwards: an injected clock earlier than the cached image.
    expect(snapshot(NOW - 86_400, cache).rows).toEqual(snapshot(NOW - 86_400, join(dir, "empty2")).rows);
  });
});
