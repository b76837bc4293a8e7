import { describe, expect, it } from "vitest";
import { loadSpec } from "../spec/load.ts";
import { parseRequest } from "../spec/request.ts";
import type { RuleExchange } from "./evaluate.ts";
import { judgeRelation } from "./relations.ts";
import type { Relation } from "./types.ts";

const spec = await loadSpec();
const search = spec.operation("searchAlerts");
const relation = (id: string): Relation => {
  const found = search.relations.find((r) => r.id === id);
  if (!found) throw new Error(`no relation ${id}`);
  return found;
};

/** A search answer: items by id and time (newest first), with an optional total. */
function answer(
  query: string,
  items: [number, number, Record<string, unknown>?][],
  total?: number,
): RuleExchange {
  return {
    operation: search,
    request: parseRequest(spec, search, new URLSearchParams(query)),
    status: 200,
    mediaType: "application/json",
    body: {
      data: items.map(([id, shijianchuo, extra]) => ({
        id,
        shijianchuo,
        title: "t",
        content: "c",
        ...extra,
      })),
      meta: { total: total ?? items.length },
    },
    sentAt: 0,
    receivedAt: 0,
  };
}

const run = (id: string, a: RuleExchange, b: RuleExchange) => {
  const v = judgeRelation(spec, relation(id), a, b);
  return { failed: v.failures.map((f) => f.message), informative: v.informative };
};

/** Relations between two answers, on synthetic answers: what each form owes and how far a ranking reaches. */
describe("judgeRelation", () => {
  it("superset: an item of A missing from B fails; total must not fall", () => {
    const a = answer("q=a&limit=3", [
      [1, 30],
      [2, 20],
    ]);
    const b = answer(
      "q=b|a&limit=3",
      [
        [1, 30],
        [3, 25],
      ],
      2,
    );
    expect(run("search-or-adds", a, b)).toEqual({
      failed: ["items of the first answer are missing from the second"],
      informative: true,
    });
    expect(
      run(
        "search-or-adds",
        a,
        answer(
          "q=b|a&limit=3",
          [
            [1, 30],
            [2, 20],
          ],
          1,
        ),
      ).failed,
    ).toEqual(["meta.total of the second must be gte the first's"]);
  });

  it("superset, B a full page: only A's items ranking strictly before B's last are owed (ties are not asked)", () => {
    const a = answer("q=a&limit=2", [
      [1, 30],
      [2, 10],
    ]);
    const fullB = answer("q=b|a&limit=2", [
      [4, 40],
      [5, 30],
    ]);
    // Item 1 ties with B's last (30), item 2 ranks after it: nothing is owed.
    expect(run("search-or-adds", a, fullB)).toEqual({ failed: [], informative: false });
    const b = answer("q=b|a&limit=2", [
      [4, 40],
      [5, 5],
    ]);
    expect(run("search-or-adds", a, b).failed).toEqual([
      "items of the first answer are missing from the second",
    ]);
  });

  it("block words: B holds nothing A would have shown, and keeps every result of A without the word", () => {
    const a = answer("q=a", [
      [1, 30, { title: "has x" }],
      [2, 20],
      [3, 10],
    ]);
    const ok = answer("q=a&kp=x", [
      [2, 20],
      [3, 10],
    ]);
    expect(run("search-block-only-removes", a, ok)).toEqual({ failed: [], informative: true });
    const dropsMore = answer("q=a&kp=x", [[3, 10]]);
    expect(run("search-block-only-removes", a, dropsMore).failed).toEqual([
      "items of the first answer are missing from the second",
    ]);
    const addsOne = answer(
      "q=a&kp=x",
      [
        [2, 20],
        [9, 15],
        [3, 10],
      ],
      3,
    );
    expect(run("search-block-only-removes", a, addsOne).failed).toEqual([
      "the second answer holds items the first would have shown",
    ]);
  });

  it("price bounds: the item the bounds were taken from must be found", () => {
    const a = answer("q=a", [
      [1, 30],
      [2, 20, { price: 9.9 }],
    ]);
    expect(
      run("search-price-bounds-inclusive", a, answer("q=a&mip=9.9&mxp=9.9", [[2, 20, { price: 9.9 }]]))
        .failed,
    ).toEqual([]);
    expect(run("search-price-bounds-inclusive", a, answer("q=a&mip=9.9&mxp=9.9", [])).failed).toEqual([
      "the item the second request was made from is missing from it",
    ]);
  });

  it("pages: disjoint, and each page holds what meta.total and the page size leave", () => {
    const a = answer(
      "q=a&limit=2",
      [
        [1, 30],
        [2, 20],
      ],
      3,
    );
    expect(run("search-pages-disjoint", a, answer("q=a&limit=2&page=2", [[3, 10]], 3)).failed).toEqual([]);
    expect(run("search-pages-disjoint", a, answer("q=a&limit=2&page=2", [[2, 20]], 3)).failed).toEqual([
      "items are in both answers",
    ]);
    expect(run("search-pages-disjoint", a, answer("q=a&limit=2&page=2", [], 3)).failed).toEqual([
      "page 2 must hold 1 items (meta.total 3, page size 2)",
    ]);
  });

  it("limit prefix: items tying at the cut may be settled either way", () => {
    const a = answer(
      "q=a&limit=2",
      [
        [1, 30],
        [2, 20],
      ],
      3,
    );
    expect(
      run(
        "search-limit-prefix",
        a,
        answer("q=a&limit=50", [
          [1, 30],
          [3, 20],
          [2, 20],
        ]),
      ).failed,
    ).toEqual([]);
    expect(
      run(
        "search-limit-prefix",
        a,
        answer("q=a&limit=50", [
          [1, 30],
          [3, 20],
          [4, 10],
        ]),
      ).failed,
    ).toEqual(["the first answer is not the start of the second"]);
  });

  it("limit prefix: A must be the start of B, in order", () => {
    const a = answer(
      "q=a&limit=2",
      [
        [1, 30],
        [2, 20],
      ],
      3,
    );
    expect(
      run(
        "search-limit-prefix",
        a,
        answer("q=a&limit=50", [
          [1, 30],
          [2, 20],
          [3, 10],
        ]),
      ).failed,
    ).toEqual([]);
    expect(
      run(
        "search-limit-prefix",
        a,
        answer("q=a&limit=50", [
          [2, 20],
          [1, 30],
          [3, 10],
        ]),
      ).failed,
    ).toEqual(["the first answer is not the start of the second"]);
  });
});
