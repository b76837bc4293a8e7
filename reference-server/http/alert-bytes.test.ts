import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertRow } from "../data/records.ts";
import { type AlertFilter, Store } from "../db/store.ts";
import { generatedDb } from "../test/helpers.ts";
import { AlertBytes } from "./alert-bytes.ts";
import { alertRecord } from "./records.ts";

/** Kept rows are the bytes the rows serialize to, in page order, and never outlive a write. */
describe("AlertBytes", () => {
  let store: Store;
  let close: () => void;
  const serialized = (rows: AlertRow[]) => rows.map((row) => JSON.stringify(alertRecord(row, true)));
  const text = (bytes: Buffer[] | undefined) => bytes?.map((b) => b.toString("utf8"));

  beforeAll(async () => {
    const db = await generatedDb(600, 11);
    store = new Store(db);
    close = () => db.close();
  });
  afterAll(() => close());

  it("gives each filter's page as the rows it reads, serialized, newest first", () => {
    const filters: AlertFilter[] = [
      { anyWords: ["京东"] },
      { anyWords: ["红包", "话费", "银行"] },
      { anyWords: ["京东"], noWords: ["红包", "plus"] },
      { minPrice: 5, maxPrice: 200 },
    ];
    for (const filter of filters)
      for (const offset of [0, 7]) {
        const docs = store.alertDocs(filter, 10, offset);
        expect(docs?.length).toBe(10);
        const expected = serialized(store.alerts(filter, 10, offset));
        expect(text(AlertBytes.of(store).rowsOf(docs as number[]))).toEqual(expected);
        // Again, now from what was kept.
        expect(text(AlertBytes.of(store).rowsOf(docs as number[]))).toEqual(expected);
      }
  });

  it("reads a row again after a write, and has none for a row removed", () => {
    const docs = store.alertDocs({ anyWords: ["京东"] }, 3, 0) as number[];
    const before = JSON.parse(text(AlertBytes.of(store).rowsOf(docs))?.[0] as string) as { comments: number };
    store.db.prepare("UPDATE alerts SET comments = comments + 7 WHERE doc = ?").run(docs[0]);
    const after = JSON.parse(text(AlertBytes.of(store).rowsOf(docs))?.[0] as string) as { comments: number };
    expect(after.comments).toBe(before.comments + 7);
    store.db.prepare("DELETE FROM alerts WHERE doc = ?").run(docs[1]);
    expect(AlertBytes.of(store).rowsOf(docs)).toBeUndefined();
  });
});
