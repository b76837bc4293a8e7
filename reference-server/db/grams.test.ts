import BetterSqlite3 from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsWord } from "../../src/rules/words.ts";
import { anyWordExpression, gramTokens } from "./grams.ts";

/** The index must answer exactly what the spec's matching (containsWord) answers. */
describe("bigram FTS index", () => {
  it("finds a word iff it is a substring (Latin case-insensitive), for every word length", () => {
    const alphabet = fc.constantFrom(
      "京",
      "东",
      "红",
      "包",
      "a",
      "A",
      "b",
      "B",
      " ",
      "，",
      "😀",
      "é",
      "É",
      "1",
    );
    const text = fc.string({ unit: alphabet, maxLength: 12 });
    const word = fc
      .string({ unit: alphabet, minLength: 1, maxLength: 4 })
      .filter((w) => w.trim() === w && w !== "");
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (texts, words) => {
          const db = new BetterSqlite3(":memory:");
          db.exec("CREATE VIRTUAL TABLE g USING fts5(t, tokenize = 'ascii', content = '')");
          const insert = db.prepare("INSERT INTO g (rowid, t) VALUES (?, ?)");
          for (const [i, t] of texts.entries()) insert.run(i + 1, gramTokens(t));
          const found = db
            .prepare<[string], { rowid: number }>("SELECT rowid FROM g WHERE g MATCH ? ORDER BY rowid")
            .all(anyWordExpression(words))
            .map((r) => r.rowid);
          const expected = texts.flatMap((t, i) => (words.some((w) => containsWord(t, w)) ? [i + 1] : []));
          db.close();
          expect(found).toEqual(expected);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });
});
