import { describe, expect, it } from "vitest";
import { loadSpec } from "../spec/load.ts";
import { parseRequest } from "../spec/request.ts";
import type { RuleExchange } from "./evaluate.ts";
import { judgeRelation } from "./relations.ts";
import type { Relation } from "./types.ts";
import { narrowestWindow } from "./windows.ts";

const spec = await loadSpec();
const search = spec.operation("searchAlerts");
const relation = (id: string): Relation => {
  const found = spec.relations().find((r) => r.relation.id === id)?.relation;
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

  it("last page: (page - 1) x page size + count = total, the page size the default when not given", () => {
    const first = answer(
      "q=a&limit=2",
      [
        [1, 50],
        [2, 40],
      ],
      5,
    );
    expect(run("search-last-page-count", first, answer("q=a&limit=2&page=3", [[5, 10]], 5))).toEqual({
      failed: [],
      informative: true,
    });
    expect(run("search-last-page-count", first, answer("q=a&limit=2&page=3", [], 5)).failed).toEqual([
      "page 3 must hold 1 items (meta.total 5, page size 2)",
    ]);
    // No limit given: the page size is the count rule's cap, limit's default (20).
    const twenty = Array.from({ length: 20 }, (_, i): [number, number] => [i + 1, 100 - i]);
    const five = Array.from({ length: 5 }, (_, i): [number, number] => [i + 21, 50 - i]);
    const byDefault = answer("q=a", twenty, 25);
    expect(run("search-last-page-count", byDefault, answer("q=a&page=2", five, 25)).failed).toEqual([]);
    expect(run("search-last-page-count", byDefault, answer("q=a&page=2", five.slice(1), 25)).failed).toEqual([
      "page 2 must hold 5 items (meta.total 25, page size 20)",
    ]);
    // Only full pages: nothing the count rule does not already judge.
    const full = answer("q=a&limit=2&page=2", [
      [3, 30],
      [4, 20],
    ]);
    expect(
      run(
        "search-last-page-count",
        answer(
          "q=a&limit=2",
          [
            [1, 50],
            [2, 40],
          ],
          4,
        ),
        { ...full, body: { ...(full.body as object), meta: { total: 4 } } },
      ),
    ).toEqual({
      failed: [],
      informative: false,
    });
  });

  // Guards search-total-capped: a total capped at a multiple of the page size leaves a last page
  // that adds up (search-last-page-count passes); only the page after it shows what is hidden.
  const two: [number, number][] = [
    [9, 90],
    [8, 80],
  ];
  it.each([
    {
      when: "the page after the last is empty",
      a: answer("q=a&limit=2", two, 4),
      b: answer("q=a&limit=2&page=3", [], 4),
      want: { failed: [], informative: true },
    },
    {
      when: "a capped total: the page after its last page holds results",
      a: answer("q=a&limit=2", two, 4),
      b: answer("q=a&limit=2&page=3", [[5, 50]], 4),
      want: { failed: ["page 3, after the last page of meta.total 4, holds items"], informative: true },
    },
    {
      when: "the page after the last states another total",
      a: answer("q=a&limit=2", two, 4),
      b: answer("q=a&limit=2&page=3", [], 5),
      want: { failed: ["meta.total of the second must be eq the first's"], informative: true },
    },
    {
      when: "a first page short of the page size: the results never reached past it, no evidence",
      a: answer("q=a&limit=2", [[9, 90]], 1),
      b: answer("q=a&limit=2&page=2", [], 1),
      want: { failed: [], informative: false },
    },
  ])("after the last page: $when", ({ a, b, want }) => {
    expect(run("search-after-last-page-empty", a, b)).toEqual(want);
  });
});

/** Relations whose second request is on another operation (`to`), its items at their own pointer. */
describe("judgeRelation across operations", () => {
  const now = 1_800_000_000;
  const exchange = (
    operationId: string,
    query: string,
    body: unknown,
    path: Record<string, string> = {},
  ): RuleExchange => {
    const operation = spec.operation(operationId);
    return {
      operation,
      request: parseRequest(spec, operation, new URLSearchParams(query), path),
      status: 200,
      mediaType: "application/json",
      body,
      sentAt: now,
      receivedAt: now,
    };
  };
  const alert = (id: number, secondsAgo: number, comments = 1) => ({
    id,
    shijianchuo: now - secondsAgo,
    comments,
  });

  it("window completeness: a feed item inside the window is in its rank when the rank is not full", () => {
    const feed = exchange("getFeed", "", { data: [alert(1, 100), alert(2, 3598), alert(3, 7200)] });
    const rank = (items: unknown[]) => exchange("getRank", "act=yixiaoshi&limit=300", { data: items });
    expect(run("feed-items-in-window-rank", feed, rank([alert(1, 100)]))).toEqual({
      failed: [],
      informative: true,
    });
    // Empty: item 1 is owed. Item 2 is 2 s from the window's edge (not surely inside), item 3 outside.
    expect(run("feed-items-in-window-rank", feed, rank([]))).toEqual({
      failed: ["items of the first answer are missing from the second"],
      informative: true,
    });
  });

  it("window completeness: a full rank owes only the items ranking before its last entry", () => {
    const feed = exchange("getFeed", "", { data: [alert(1, 100, 0), alert(2, 200, 5)] });
    const full = exchange("getRank", "act=yixiaoshi&limit=2", { data: [alert(8, 60, 6), alert(9, 50, 3)] });
    // Item 2 (5 comments) ranks before the last entry (3), item 1 (0) after it.
    expect(run("feed-items-in-window-rank", feed, full).failed).toEqual([
      "items of the first answer are missing from the second",
    ]);
    const fullOk = exchange("getRank", "act=yixiaoshi&limit=2", {
      data: [alert(2, 200, 5), alert(9, 50, 3)],
    });
    expect(run("feed-items-in-window-rank", feed, fullOk)).toEqual({ failed: [], informative: true });
  });

  it("equal: the legacy file (a bare array) holds the rank's entries in its order, ties either way", () => {
    const legacy = (items: unknown[]) => exchange("getLegacyRankFile", "", items, { act: "jintian" });
    const rank = exchange("getRank", "act=jintian&limit=50", {
      data: [alert(1, 10, 5), alert(2, 20, 3), alert(3, 20, 3)],
    });
    expect(
      run("legacy-rank-equals-rank", legacy([alert(1, 10, 5), alert(3, 20, 3), alert(2, 20, 3)]), rank),
    ).toEqual({
      failed: [],
      informative: true,
    });
    for (const other of [
      [alert(1, 10, 5), alert(2, 20, 3)],
      [alert(1, 10, 5), alert(2, 20, 3), alert(4, 30, 3)],
      [],
    ])
      expect(run("legacy-rank-equals-rank", legacy(other), rank).failed).toEqual([
        "the two answers do not hold the same items in the same order",
      ]);
  });

  it("windowOf: the narrowest window holding a time, today while it is younger than an hour", () => {
    const windows = spec.rankWindows;
    // 12:00 in Asia/Shanghai (UTC+8): a minute ago is the last hour's, four hours ago the last six's.
    const noon = Date.UTC(2026, 10, 26, 4) / 1000;
    expect(narrowestWindow(windows, noon - 60, noon)).toBe("yixiaoshi");
    expect(narrowestWindow(windows, noon - 4 * 3600, noon)).toBe("liuxiaoshi");
    // 00:30: today is half an hour long, narrower than the last hour.
    const halfPast = Date.UTC(2026, 10, 25, 16, 30) / 1000;
    expect(narrowestWindow(windows, halfPast - 60, halfPast)).toBe("jintian");
    expect(narrowestWindow(windows, noon + 60, noon)).toBeUndefined();
  });
});
