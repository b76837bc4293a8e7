import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AlertRow } from "../data/records.ts";
import { type AlertFilter, Store } from "../db/store.ts";
import { generatedDb } from "../test/helpers.ts";
import { AlertBytes } from "./alert-bytes.ts";
import { alertRecord } from "./records.ts";

const serialized = (rows: AlertRow[]) => rows.map((row) => JSON.stringify(alertRecord(row, true)));
const text = (bytes: Buffer[] | undefined) => bytes?.map((b) => b.toString("utf8"));

/** A store on 600 generated alerts for the enclosing describe, closed after it. */
function storeFor(seed: number): () => Store {
  let store: Store | undefined;
  beforeAll(async () => {
    store = new Store(await generatedDb(600, seed));
  });
  afterAll(() => store?.db.close());
  return () => store as Store;
}

/** Kept rows are the bytes the rows serialize to, in page order, and never outlive a write. */
describe("AlertBytes", () => {
  const storeOf = storeFor(11);

  it("gives each filter's page as the rows it reads, serialized, newest first", () => {
    const store = storeOf();
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
    const store = storeOf();
    const docs = store.alertDocs({ anyWords: ["京东"] }, 3, 0) as number[];
    const before = JSON.parse(text(AlertBytes.of(store).rowsOf(docs))?.[0] as string) as { comments: number };
    store.db.prepare("UPDATE alerts SET comments = comments + 7 WHERE doc = ?").run(docs[0]);
    const after = JSON.parse(text(AlertBytes.of(store).rowsOf(docs))?.[0] as string) as { comments: number };
    expect(after.comments).toBe(before.comments + 7);
    store.db.prepare("DELETE FROM alerts WHERE doc = ?").run(docs[1]);
    expect(AlertBytes.of(store).rowsOf(docs)).toBeUndefined();
  });
});

/** A small bound: the rows kept longest make room, pages stay whole and right (no write here). */
describe("AlertBytes within its bound", () => {
  const storeOf = storeFor(12);

  it("stays within its bound, letting go of the rows kept longest, and still gives every page whole", () => {
    const store = storeOf();
    const bytes = new AlertBytes(store, 25);
    const filters: AlertFilter[] = [
      { anyWords: ["京东"] },
      { anyWords: ["红包"] },
      { minPrice: 5, maxPrice: 200 },
    ];
    for (let round = 0; round < 2; round++)
      for (const filter of filters)
        for (const offset of [0, 10, 20]) {
          const docs = store.alertDocs(filter, 10, offset) as number[];
          expect(text(bytes.rowsOf(docs))).toEqual(serialized(store.alerts(filter, 10, offset)));
          expect(bytes.size).toBeLessThanOrEqual(25);
        }
    // Three pages of 10 in a fresh one of 25: the third lets go of 5 rows of the first only, so
    // the second is still served without a read (emptying it all would have read it again).
    const fresh = new AlertBytes(store, 25);
    const pages = [0, 10, 20].map(
      (offset) => store.alertDocs({ anyWords: ["京东"] }, 10, offset) as number[],
    );
    for (const docs of pages) fresh.rowsOf(docs);
    expect(fresh.size).toBe(25);
    const reads = vi.spyOn(store, "rowsByDoc");
    expect(text(fresh.rowsOf(pages[1] as number[]))).toEqual(
      serialized(store.alerts({ anyWords: ["京东"] }, 10, 10)),
    );
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
  });
});
