import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { vocabularyFrom } from "../arbitraries/vocabulary.ts";
import type { RequestCase } from "../types.ts";
import { fillFromFirst, varyRequest } from "./vary.ts";

const spec = await loadSpec();
const relationOf = (id: string) => {
  const found = spec.relations().find(({ relation }) => relation.id === id);
  if (!found) throw new Error(`no relation ${id}`);
  return found;
};
const request = (operationId: string, pathname: string, query: [string, string][] = []): RequestCase => ({
  method: "GET",
  operationId,
  pathname,
  query,
  headers: {},
  label: "base",
});
// Activities whose descriptions hold words their names do not (周末, 老用), alerts with content words.
const vocabulary = vocabularyFrom(
  [{ id: 1, title: "京东 PLUS 红包", content: "活动 每天 可领" }],
  [
    { id: 1, name: "美团外卖 神券", desc: "周末可用，叠加会员券" },
    { id: 2, name: "饿了么 红包", desc: "老用户也可参与" },
    { id: 3, name: "美团 单车", desc: "周末半价" },
  ],
  [],
);
const vary = (id: string, base: RequestCase) => {
  const { operation, relation } = relationOf(id);
  return varyRequest(spec, operation, relation, base, vocabulary);
};

describe("the second request of a relation", () => {
  it("addWord: one word of each field the word list is matched in, the description's too", () => {
    expect(vocabulary.fieldWords.desc?.[0]).toBe("周末");
    const q = vary("shenghuo-keyword-complete", request("listActivities", "/api/v1/shenghuo"))?.request.query;
    expect(q).toEqual([["q", "美团|周末"]]);
    const search = vary("search-or-adds", request("searchAlerts", "/api/v1/search", [["q", "红包"]]));
    expect(search?.request.query).toEqual([["q", "京东|活动|红包"]]);
  });

  it("last: the page is taken from the first answer's total at the first request's page size", () => {
    const second = vary("search-last-page-count", request("searchAlerts", "/api/v1/search", [["q", "a"]]));
    expect(second?.fromFirst).toEqual({ page: { lastPage: { size: 20 } } });
    const page = (total: unknown) =>
      second &&
      fillFromFirst(spec, { at: "/data", params: second.fromFirst }, second.request, {
        body: { data: [], meta: { total } },
        sentAt: 0,
      })?.query;
    expect(page(45)).toEqual([
      ["q", "a"],
      ["page", "3"],
    ]);
    expect(page(40)).toEqual([
      ["q", "a"],
      ["page", "2"],
    ]);
    expect(page(0)).toEqual([
      ["q", "a"],
      ["page", "1"],
    ]);
    expect(page(undefined)).toBeUndefined();
  });

  it("afterLast: one page past the last page of the first answer's total", () => {
    const second = vary(
      "search-after-last-page-empty",
      request("searchAlerts", "/api/v1/search", [["q", "a"]]),
    );
    expect(second?.fromFirst).toEqual({ page: { lastPage: { size: 20, after: 1 } } });
    const page = (total: unknown) =>
      second &&
      new URLSearchParams(
        fillFromFirst(spec, { at: "/data", params: second.fromFirst }, second.request, {
          body: { data: [], meta: { total } },
          sentAt: 0,
        })?.query,
      ).get("page");
    expect([45, 40, 0, 100].map(page)).toEqual(["4", "3", "2", "6"]);
  });

  it("to + windowOf: feed to the rank of the narrowest window holding its newest alert", () => {
    const second = vary("feed-items-in-window-rank", request("getFeed", "/api/v1/feed", [["limit", "50"]]));
    expect(second?.request).toMatchObject({ operationId: "getRank", pathname: "/api/v1/rank" });
    expect(second?.fromFirst).toEqual({ act: { windowOf: "shijianchuo" } });
    const now = Date.UTC(2026, 10, 26, 4) / 1000; // 12:00 in Asia/Shanghai
    const filled =
      second &&
      fillFromFirst(spec, { at: "/data", params: second.fromFirst }, second.request, {
        body: { data: [{ id: 1 }, { id: 2, shijianchuo: now - 2 * 3600 }] },
        sentAt: now,
      });
    expect(new URLSearchParams(filled?.query).get("act")).toBe("sanxiaoshi");
    expect(new URLSearchParams(filled?.query).get("limit")).toBe("300");
  });

  it("to: the legacy file's act (a path parameter) carried to the rank's query", () => {
    const second = vary(
      "legacy-rank-equals-rank",
      request("getLegacyRankFile", "/plus/json/rank/jintian.json"),
    );
    expect(second?.request).toMatchObject({ operationId: "getRank", pathname: "/api/v1/rank" });
    expect(second?.request.query).toEqual([
      ["act", "jintian"],
      ["limit", "50"],
    ]);
  });
});
