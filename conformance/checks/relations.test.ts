/**
 * A relation's first request is one whose answer could show a violation: where the second request
 * takes a field from the first answer's items, the first searches a word of alerts carrying it; a
 * window carried across operations is one whose rank differs from its neighbour's; page
 * arithmetic falls back to other page sizes. A case that could not show one is not evidence, and
 * says why.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { vocabularyFrom } from "../arbitraries/vocabulary.ts";
import { defaultRegistry } from "../registry.ts";
import { readExchange } from "../runner/exchange.ts";
import { candidatesByOperation, validCasesOf } from "../runner/plan.ts";
import type { Check, Exchange, PlanContext, RequestCase } from "../types.ts";

const spec = await loadSpec();
const alert = (id: number, title: string, price?: number) => ({
  id,
  title,
  cateid: "16",
  ...(price ? { price } : {}),
});
// The most widespread word (免费) is only in unpriced alerts; 京东 only in priced ones.
const vocabulary = vocabularyFrom(
  [
    alert(1, "免费领会员"),
    alert(2, "免费抽奖"),
    alert(3, "免费试用"),
    alert(4, "京东好价", 9.9),
    alert(5, "京东秒杀", 25),
  ],
  [],
  [],
);
const ctx: PlanContext = {
  spec,
  releases: [],
  rate: { limit: 60, windowSeconds: 60 },
  vocabulary,
  validCases: validCasesOf(candidatesByOperation(spec, vocabulary)),
};
const firstQuery = (name: string) => {
  const check = defaultRegistry(spec).get(name) as Check;
  return Object.fromEntries(check.plan?.(ctx)[0]?.requests[0]?.query ?? []);
};

describe("relation first requests that could show a violation", () => {
  it("discovery keeps the words of the alerts that carry a price", () => {
    expect(vocabulary.words[0]).toBe("免费");
    expect(vocabulary.carrierWords.price?.[0]).toBe("京东");
  });

  // Regression: searched by 免费, the first answer held no priced alert, and the inclusive-bounds
  // relation was inconclusive on an independent implementation whose data was right.
  it("inclusive price bounds: the first search is for a word of priced alerts", () => {
    expect(firstQuery("relation:search-price-bounds-inclusive").q).toBe("京东");
  });

  it("relations that take nothing from the items keep the most widespread word", () => {
    expect(firstQuery("relation:search-or-adds").q).toMatch(/^免费/);
  });
});

// Issue 37: a case counts as evidence only if a violation would have been visible on it.
const NOW = 1_768_449_600; // 2026-01-15 12:00 Asia/Shanghai
const check = (name: string) => defaultRegistry(spec).get(name) as Check;

function exchange(label: string, pathname: string, query: [string, string][], body: unknown): Exchange {
  const request: RequestCase = { method: "GET", pathname, query, headers: {}, label };
  const qs = new URLSearchParams(query).toString();
  return readExchange(spec, request, {
    url: `http://example.test${pathname}${qs ? `?${qs}` : ""}`,
    status: 200,
    headers: { "content-type": "application/json" },
    text: JSON.stringify(body),
    sentAt: NOW,
    receivedAt: NOW,
  });
}

/** A sent group as the sender records it: A, B, the control if any, A′. */
function sentGroup(name: string, exchanges: Exchange[]) {
  const [a] = exchanges;
  const all = a ? [...exchanges, { ...a, request: { ...a.request, label: "again" } }] : exchanges;
  return {
    planned: { check: name, kind: "compare" as const, requests: all.map((e) => e.request), label: name },
    exchanges: all,
  };
}

const entry = (id: number, comments: number) => ({ id, comments, shijianchuo: NOW - id * 60 });
const rank = (...ids: number[]) => ({ data: ids.map((i) => entry(i, 100 - i)) });
const legacy = (act: string, ...ids: number[]) =>
  exchange("relation:legacy-rank-equals-rank first", `/plus/json/rank/${act}.json`, [], rank(...ids).data);
const rankOf = (role: string, act: string, ...ids: number[]) =>
  exchange(
    `relation:legacy-rank-equals-rank ${role}`,
    "/api/v1/rank",
    [
      ["act", act],
      ["limit", "50"],
    ],
    rank(...ids),
  );
const page = (role: string, query: [string, string][], ids: number[], total: number) =>
  exchange(`relation:${role}`, "/api/v1/search", [["q", "京东"], ...query], {
    data: ids.map((id) => ({ id, shijianchuo: NOW - id })),
    meta: { total },
  });
const twenty = (from: number) => Array.from({ length: 20 }, (_, i) => from + i);

describe("relation cases count as evidence only where a violation would show", () => {
  it.each([
    [
      "discriminating: the file equals the rank of its act, which differs from the wider window's",
      {
        name: "relation:legacy-rank-equals-rank",
        sent: [
          legacy("jintian", 1, 2),
          rankOf("second", "jintian", 1, 2),
          rankOf("control", "ershisixiaoshi", 1, 2, 3),
        ],
        want: { informative: true, findings: 0, reason: undefined },
      },
    ],
    [
      "a violation: the file holds the wider window's rank",
      {
        name: "relation:legacy-rank-equals-rank",
        sent: [
          legacy("jintian", 1, 2, 3),
          rankOf("second", "jintian", 1, 2),
          rankOf("control", "ershisixiaoshi", 1, 2, 3),
        ],
        want: { informative: true, findings: 1, reason: undefined },
      },
    ],
    [
      "not discriminating: the act's rank is its wider window's, a wrong window would pass",
      {
        name: "relation:legacy-rank-equals-rank",
        sent: [
          legacy("shiwutian", 1, 2),
          rankOf("second", "shiwutian", 1, 2),
          rankOf("control", "qitian", 1, 2),
        ],
        want: {
          informative: false,
          findings: 0,
          reason:
            /same 2 items as the control .*\(first \/plus\/json\/rank\/shiwutian\.json → 2 items; .*act=qitian&limit=50 → 2 items\): an answer of the wrong window would have passed/,
        },
      },
    ],
    [
      "last page full: 120 results at 20 a page end on a full page 6, no count can be off",
      {
        name: "relation:search-last-page-count",
        sent: [
          page("search-last-page-count first", [["limit", "20"]], twenty(1), 120),
          page(
            "search-last-page-count second",
            [
              ["limit", "20"],
              ["page", "6"],
            ],
            twenty(101),
            120,
          ),
        ],
        want: {
          informative: false,
          findings: 0,
          reason:
            /^meta\.total 120 at 20 a page fills its last page \(6\) too: .* \(first \/api\/v1\/search\?q=京东&limit=20 → 20 items, meta\.total 120; second .*page=6 → 20 items/,
        },
      },
    ],
    [
      "last page part-filled: 110 results end on page 6 holding 10",
      {
        name: "relation:search-last-page-count",
        sent: [
          page("search-last-page-count first", [["limit", "20"]], twenty(1), 110),
          page(
            "search-last-page-count second",
            [
              ["limit", "20"],
              ["page", "6"],
            ],
            twenty(101).slice(0, 10),
            110,
          ),
        ],
        want: { informative: true, findings: 0, reason: undefined },
      },
    ],
    [
      "after the last page: a first page that is not full shows no total reaching past it",
      {
        name: "relation:search-after-last-page-empty",
        sent: [
          page("search-after-last-page-empty first", [["limit", "20"]], [1, 2, 3], 3),
          page(
            "search-after-last-page-empty second",
            [
              ["limit", "20"],
              ["page", "2"],
            ],
            [],
            3,
          ),
        ],
        want: {
          informative: false,
          findings: 0,
          reason: /^the first page holds 3 of 20: the results end on it/,
        },
      },
    ],
  ])("%s", (_name, { name, sent, want }) => {
    const verdict = check(name).judgeGroup?.(ctx, sentGroup(name, sent));
    expect(verdict?.informative).toBe(want.informative);
    expect(verdict?.findings.length).toBe(want.findings);
    if (want.reason) expect(verdict?.inconclusive).toMatch(want.reason);
    else expect(verdict?.inconclusive).toBeUndefined();
  });
});

describe("relation first requests chosen so that the two sides can differ", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Regression (issue 37): the widest window was asked, whose rank was its neighbours'; a legacy
  // file serving the next wider window passed. Every alert here is of the last two hours: only
  // the last hour's rank differs from the rank of the window next to it.
  it("a window carried across operations: the act whose rank differs from its neighbour's, with a control there", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW * 1000);
    const timeline = [
      { id: 1, comments: 3, shijianchuo: NOW - 600 },
      { id: 2, comments: 9, shijianchuo: NOW - 7200 },
    ];
    const plan = check("relation:legacy-rank-equals-rank").plan?.({
      ...ctx,
      vocabulary: { ...vocabulary, timeline },
    });
    const [first, second, control] = plan?.[0]?.requests ?? [];
    expect(first?.pathname).toBe("/plus/json/rank/yixiaoshi.json");
    expect(second?.query).toEqual([
      ["act", "yixiaoshi"],
      ["limit", "50"],
    ]);
    expect(control?.query).toEqual([
      ["act", "sanxiaoshi"],
      ["limit", "50"],
    ]);
  });

  // Regression (issue 37): the fallback of search-last-page-count was a price filter on an
  // unpriced category, which the spec says is always empty.
  it("never a first request the spec says answers empty; page arithmetic falls back to other page sizes", () => {
    const onUnpriced: RequestCase = {
      method: "GET",
      operationId: "searchAlerts",
      pathname: "/api/v1/search",
      query: [
        ["cate", "douban"],
        ["mip", "10"],
        ["limit", "20"],
      ],
      headers: {},
      label: "steered rule:search-price-filter-unpriced-category",
    };
    const plan = check("relation:search-last-page-count").plan?.({
      ...ctx,
      validCases: (op) => [...(op === "searchAlerts" ? [onUnpriced] : []), ...ctx.validCases(op)],
    });
    const firsts = (plan ?? []).map((g) => Object.fromEntries(g.requests[0]?.query ?? []));
    expect(firsts.some((q) => q.mip !== undefined || q.mxp !== undefined)).toBe(false);
    expect(firsts.map((q) => q.limit).slice(1)).toEqual(["49", "50"]);
    expect(plan?.slice(1).every((g) => g.fallback)).toBe(true);
  });
});
