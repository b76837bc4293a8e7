import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsWord } from "../../src/rules/words.ts";
import type { AlertRow } from "../data/records.ts";
import { connect } from "./open.ts";
import { Store } from "./store.ts";
import { addAlerts, renumberIfLate, writeDataset } from "./write.ts";

const alphabet = fc.constantFrom("京", "东", "红", "包", "a", "A", "b", "B", " ", "，", "😀", "é", "É", "1");
const text = fc.string({ unit: alphabet, maxLength: 12 });
const word = fc
  .string({ unit: alphabet, minLength: 1, maxLength: 4 })
  .filter((w) => w.trim() === w && w !== "");

function row(i: number, title: string, content: string, shijianchuo: number, tag: string): AlertRow {
  return {
    id: 1000 + i,
    title,
    content,
    datetime: "2026-11-25",
    shorttime: "10:00",
    shijianchuo,
    cateid: i % 2 ? "10" : "30",
    catename: "x",
    comments: 0,
    louzhu: "u",
    louzhuregtime: null,
    url: `/a/${i}`,
    yuanurl: null,
    price: i % 3 ? i : null,
    tags: JSON.stringify([tag]),
  };
}

/**
 * The token sets must answer exactly what the spec's matching (containsWord) answers, for every
 * word length (1: a prefix union, 2: one set, 3+: candidates checked on the text), and pages
 * must come newest first whatever order the alerts were written in (late docs), and an id
 * written twice counts and shows once, as its last row, whether in one write or in two.
 */
describe("search from the token sets", () => {
  it("counts and pages like the brute force, for any words and any write order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, text, fc.integer({ min: 0, max: 50 }), fc.constantFrom("甲", "乙 丙")), {
          minLength: 1,
          maxLength: 10,
        }),
        fc.array(word, { minLength: 0, maxLength: 3 }),
        fc.array(word, { minLength: 0, maxLength: 2 }),
        fc.constantFrom("one at a time", "one live batch", "one bulk write"),
        fc.constantFrom(undefined, "10"),
        fc.constantFrom(undefined, "甲", "乙 丙"),
        // Ids repeated (i modulo this): a later row replaces an earlier one, within one write too.
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        (texts, anyWords, noWords, how, cateid, tag, ids) => {
          const db = connect(":memory:");
          try {
            const rows = texts.map(([t, c, age, g], i) => ({
              ...row(i, t, c, 1_700_000_000 - age, g),
              id: 1000 + (ids === undefined ? i : i % ids),
            }));
            // Live arrivals one at a time or in one batch, or one bulk write: in the given (unsorted) order.
            if (how === "one at a time") for (const r of rows) addAlerts(db, [r]);
            else if (how === "one live batch") addAlerts(db, rows);
            else writeDataset(db, { alerts: rows });
            const f = { anyWords, noWords, cateid, tag };
            const hit = (a: AlertRow, w: string) => containsWord(a.title, w) || containsWord(a.content, w);
            const newestFirst = db.prepare<[], AlertRow>("SELECT * FROM alerts ORDER BY seq DESC").all();
            const expected = newestFirst
              .filter(
                (a) =>
                  (anyWords.length === 0 || anyWords.some((w) => hit(a, w))) &&
                  !noWords.some((w) => hit(a, w)) &&
                  (cateid === undefined || a.cateid === cateid) &&
                  (tag === undefined || (JSON.parse(a.tags) as string[]).includes(tag)),
              )
              .map((a) => a.id);
            const store = new Store(db);
            if (anyWords.length || noWords.length || cateid !== undefined || tag !== undefined)
              expect(store.countAlerts(f)).toBe(expected.length);
            for (const offset of [0, 2]) {
              expect(store.alerts(f, 3, offset).map((a) => a.id)).toEqual(expected.slice(offset, offset + 3));
            }
          } finally {
            db.close();
          }
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it("renumbers alerts written out of time order (an import), keeping every answer", () => {
    const db = connect(":memory:");
    try {
      // Newest first in the file: every alert after the first is late.
      const rows = Array.from({ length: 60 }, (_, i) =>
        row(
          i,
          i % 3 ? "京东红包" : "红包a",
          i % 4 ? "东京" : "b",
          1_700_000_000 - i * 10,
          i % 2 ? "甲" : "乙 丙",
        ),
      );
      writeDataset(db, { alerts: rows });
      const filters = [
        { anyWords: ["红包"] },
        { anyWords: ["京东红"], noWords: ["a"] },
        { tag: "乙 丙" },
        { cateid: "10" },
      ];
      const answers = (store: Store) =>
        filters.map((f) => [store.countAlerts(f), store.alerts(f, 5, 3).map((a) => a.id)]);
      const before = answers(new Store(db));
      const late = () => db.prepare("SELECT count(*) FROM term_docs WHERE term = 'late'").pluck().get();
      expect(late()).toBe(1);
      expect(renumberIfLate(db)).toBe(true);
      expect(late()).toBe(0);
      const order = db.prepare<[], number>("SELECT doc FROM alerts ORDER BY seq").pluck().all();
      expect(order).toEqual(order.map((_, i) => i));
      expect(answers(new Store(db))).toEqual(before);
      expect(renumberIfLate(db)).toBe(false);
    } finally {
      db.close();
    }
  });
});

describe("alert URLs stored without the site's prefix", () => {
  it("read back exactly as written, whatever their text", () => {
    const db = connect(":memory:");
    try {
      const urls = [
        "https://new.xianbao.fun/weibo/1.html",
        "https://new.xianbao.fun/",
        "https://new.xianbao.funny/x",
        "http://new.xianbao.fun/x",
        "\u0001odd",
        "\u0002odd",
        "/a/1",
        "",
      ];
      writeDataset(db, {
        alerts: urls.map((url, i) => ({ ...row(i, "t", "c", 1_700_000_000 + i, "甲"), url })),
      });
      expect(db.prepare("SELECT url FROM alerts ORDER BY id").pluck().all()).toEqual(urls);
      const stored = db.prepare<[], string>("SELECT site_url FROM alerts ORDER BY id").pluck().all();
      expect(stored[0]).toBe("\u0001weibo/1.html");
      expect(new Store(db).latest(undefined, 20).map((a) => a.url)).toEqual([...urls].reverse());
    } finally {
      db.close();
    }
  });
});
