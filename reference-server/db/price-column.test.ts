import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsWord } from "../../src/rules/words.ts";
import type { AlertRow } from "../data/records.ts";
import { connect } from "./open.ts";
import { type AlertFilter, Store } from "./store.ts";
import { addAlerts, clearData, removeAlertsBefore, renumberIfLate, writeDataset } from "./write.ts";

const words = ["京东", "红包", "东", "京东红"];

function row(id: number, shijianchuo: number, price: number | null, title: string): AlertRow {
  return {
    id,
    title,
    content: "",
    datetime: "2026-11-25",
    shorttime: "10:00",
    shijianchuo,
    cateid: id % 2 ? "10" : "30",
    catename: "x",
    comments: 0,
    louzhu: "u",
    louzhuregtime: null,
    url: `/a/${id}`,
    yuanurl: null,
    price,
    tags: "[]",
  };
}

const alert = fc
  .record({
    id: fc.integer({ min: 1, max: 40 }),
    age: fc.integer({ min: 0, max: 1000 }),
    price: fc.option(fc.constantFrom(0.01, 1, 9.99, 10, 10.5, 50, 99.99, 100, 250), { nil: null }),
    title: fc.constantFrom(...words, "红", "无"),
  })
  .map((a) => row(a.id, 1_700_000_000 - a.age, a.price, a.title));

const filter = fc.record(
  {
    minPrice: fc.constantFrom(0, 1, 9.995, 10, 50, 100),
    maxPrice: fc.constantFrom(1, 10, 10.5, 99.99, 1000),
    anyWords: fc.constantFrom<string[]>(["京东"], ["东"], ["京东红"], ["红包", "东"]),
    noWords: fc.constantFrom<string[]>(["红包"], ["京东红"]),
    cateid: fc.constantFrom("10", "30"),
  },
  { requiredKeys: [] },
);

/** What the spec's matching gives, read from the rows as stored, newest first. */
function bruteForce(all: AlertRow[], f: AlertFilter): number[] {
  const hit = (a: AlertRow, w: string) => containsWord(a.title, w) || containsWord(a.content, w);
  return all
    .filter(
      (a) =>
        (!f.anyWords?.length || f.anyWords.some((w) => hit(a, w))) &&
        !f.noWords?.some((w) => hit(a, w)) &&
        (f.cateid === undefined || a.cateid === f.cateid) &&
        (f.minPrice === undefined || (a.price !== null && a.price >= f.minPrice)) &&
        (f.maxPrice === undefined || (a.price !== null && a.price <= f.maxPrice)),
    )
    .map((a) => a.id);
}

/**
 * A price range is checked on the store's in-memory price column, which one Store keeps from
 * the data it read at start: it must follow every later write (live arrivals, replacements,
 * removals, a renumbering import) and answer what the rows answer.
 */
describe("the price column", () => {
  it("answers price ranges, alone and with words or a category, like the brute force through writes", () => {
    fc.assert(
      fc.property(
        // Ids from 1 to 40: a write often repeats one (the last row of an id is the one stored).
        fc.array(alert, { minLength: 1, maxLength: 12 }),
        fc.array(alert, { maxLength: 12 }),
        fc.constantFrom("one at a time", "one live batch", "one bulk write"),
        fc.array(filter, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 1000 }),
        (first, later, how, filters, removeAge) => {
          const db = connect(":memory:");
          try {
            writeDataset(db, { alerts: first });
            // The store reads the column now; everything after is a change it must catch up with.
            const store = new Store(db);
            const check = () => {
              const all = db.prepare<[], AlertRow>("SELECT * FROM alerts ORDER BY seq DESC").all();
              for (const f of filters) {
                const expected = bruteForce(all, f);
                expect(store.countAlerts(f)).toBe(expected.length);
                for (const offset of [0, 2])
                  expect(store.alerts(f, 3, offset, expected.length).map((a) => a.id)).toEqual(
                    expected.slice(offset, offset + 3),
                  );
              }
            };
            check();
            // A repeated id replaces its alert under a new doc, in separate writes or in one.
            if (how === "one at a time") for (const r of later) addAlerts(db, [r]);
            else if (how === "one live batch") addAlerts(db, later);
            else writeDataset(db, { alerts: later });
            check();
            removeAlertsBefore(db, 1_700_000_000 - removeAge);
            check();
          } finally {
            db.close();
          }
        },
      ),
      { seed: 25, numRuns: 150 },
    );
  });

  it("reads every price again when doc numbers start again (an import renumbering or replacing the data)", () => {
    const db = connect(":memory:");
    try {
      // Oldest last: every alert after the first is late, so renumbering moves every doc.
      const rows = Array.from({ length: 30 }, (_, i) =>
        row(i + 1, 1_700_000_000 - i, i % 4 ? i : null, "京东"),
      );
      writeDataset(db, { alerts: rows });
      const store = new Store(db);
      const f = { minPrice: 5, maxPrice: 20, anyWords: ["京东"] };
      const answer = () => [store.countAlerts(f), store.alerts(f, 4, 1).map((a) => a.id)];
      const before = answer();
      db.transaction(() => expect(renumberIfLate(db)).toBe(true))();
      expect(answer()).toEqual(before);
      // Replaced data of the same size: the same doc numbers now name alerts of other prices.
      const replaced = rows.map((r, i) => ({ ...r, id: r.id + 100, price: i % 4 ? 100 - i : null }));
      db.transaction(() => {
        clearData(db);
        writeDataset(db, { alerts: replaced });
      })();
      const all = db.prepare<[], AlertRow>("SELECT * FROM alerts ORDER BY seq DESC").all();
      const expected = bruteForce(all, { minPrice: 80, maxPrice: 90 });
      expect(expected.length).toBeGreaterThan(0);
      expect(store.countAlerts({ minPrice: 80, maxPrice: 90, anyWords: ["京东"] })).toBe(expected.length);
      expect(store.alerts({ minPrice: 80, maxPrice: 90 }, 50, 0, expected.length).map((a) => a.id)).toEqual(
        expected,
      );
    } finally {
      db.close();
    }
  });
});
