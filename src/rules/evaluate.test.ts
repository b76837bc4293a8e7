/** The rule engine on synthetic exchanges, with the real spec's rules (table-driven). */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../spec/load.ts";
import { parseRequest } from "../spec/request.ts";
import { checkRule, conditionHolds, refusingRules } from "./evaluate.ts";

const spec = await loadSpec();
const NOW = 1_795_575_630;

function exchange(
  operationId: string,
  query: string,
  status: number,
  body: unknown,
  mediaType = "application/json",
) {
  const operation = spec.operation(operationId);
  const match = spec.match(operation.path.replace("{act}", "yixiaoshi"));
  const request = parseRequest(spec, operation, new URLSearchParams(query), match?.pathParams);
  return { operation, request, status, mediaType, body, sentAt: NOW, receivedAt: NOW };
}

function rule(operationId: string, id: string) {
  const found = spec.operation(operationId).rules.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
}

const alert = (extra: Record<string, unknown> = {}) => ({
  id: 1,
  title: "京东 红包",
  cateid: "16",
  comments: 1,
  shijianchuo: NOW - 60,
  ...extra,
});

describe("checkRule", () => {
  const cases: [
    string,
    {
      op: string;
      rule: string;
      query: string;
      status: number;
      body: unknown;
      mediaType?: string;
      fails: boolean;
    },
  ][] = [
    [
      "content absent at the default limit passes",
      {
        op: "getRank",
        rule: "rank-content-omitted",
        query: "act=yixiaoshi",
        status: 200,
        body: { data: [alert()] },
        fails: false,
      },
    ],
    [
      "content shown at limit 50 fails",
      {
        op: "getRank",
        rule: "rank-content-omitted",
        query: "act=yixiaoshi&limit=50",
        status: 200,
        body: { data: [alert({ content: "x" })] },
        fails: true,
      },
    ],
    [
      "content shown at limit 51 is another rule's business",
      {
        op: "getRank",
        rule: "rank-content-omitted",
        query: "act=yixiaoshi&limit=51",
        status: 200,
        body: { data: [alert({ content: "x" })] },
        fails: false,
      },
    ],
    [
      "content missing at limit 51 fails",
      {
        op: "getRank",
        rule: "rank-content-present",
        query: "act=yixiaoshi&limit=51",
        status: 200,
        body: { data: [alert()] },
        fails: true,
      },
    ],
    [
      "an entry a day old fails the one-hour window",
      {
        op: "getRank",
        rule: "rank-entries-in-window",
        query: "act=yixiaoshi",
        status: 200,
        body: { data: [alert({ shijianchuo: NOW - 86_400 })] },
        fails: true,
      },
    ],
    [
      "order by comments desc passes",
      {
        op: "getRank",
        rule: "rank-order",
        query: "act=yixiaoshi",
        status: 200,
        body: { data: [alert({ comments: 5 }), alert({ comments: 2 })] },
        fails: false,
      },
    ],
    [
      "order by comments asc fails",
      {
        op: "getRank",
        rule: "rank-order",
        query: "act=yixiaoshi",
        status: 200,
        body: { data: [alert({ comments: 2 }), alert({ comments: 5 })] },
        fails: true,
      },
    ],
    [
      "price on an unpriced category fails",
      {
        op: "getFeed",
        rule: "feed-price-only-on-priced-kinds",
        query: "",
        status: 200,
        body: { data: [alert({ price: 1 })] },
        fails: true,
      },
    ],
    [
      "price on a priced category passes",
      {
        op: "getFeed",
        rule: "feed-price-only-on-priced-kinds",
        query: "",
        status: 200,
        body: { data: [alert({ cateid: "10", price: 1 })] },
        fails: false,
      },
    ],
    [
      "search without criterion served fails",
      {
        op: "searchAlerts",
        rule: "search-needs-criterion",
        query: "q=%7C%23",
        status: 200,
        body: { data: [] },
        fails: true,
      },
    ],
    [
      "search without criterion refused with the right problem passes",
      {
        op: "searchAlerts",
        rule: "search-needs-criterion",
        query: "",
        status: 400,
        mediaType: "application/problem+json",
        body: { type: "/problems/missing-search-criterion", errors: [{ name: "q" }] },
        fails: false,
      },
    ],
    [
      "a result without any q word fails",
      {
        op: "searchAlerts",
        rule: "search-or-words",
        query: "q=%E6%B7%98%E5%AE%9D",
        status: 200,
        body: { data: [alert()] },
        fails: true,
      },
    ],
    [
      "a result with a kp word fails",
      {
        op: "searchAlerts",
        rule: "search-block-words",
        query: "kp=%E7%BA%A2%E5%8C%85",
        status: 200,
        body: { data: [alert()] },
        fails: true,
      },
    ],
    [
      "a price under mip fails",
      {
        op: "searchAlerts",
        rule: "search-price-range",
        query: "mip=10",
        status: 200,
        body: { data: [alert({ cateid: "10", price: 5 })] },
        fails: true,
      },
    ],
    [
      "unpriced category with a price filter answering 400 fails",
      {
        op: "searchAlerts",
        rule: "search-price-filter-unpriced-category",
        query: "mip=1&cate=douban",
        status: 400,
        body: {},
        fails: true,
      },
    ],
    [
      "a legacy file over 50 entries fails",
      {
        op: "getLegacyRankFile",
        rule: "legacy-rank-count",
        query: "",
        status: 200,
        body: Array.from({ length: 51 }, () => alert()),
        fails: true,
      },
    ],
  ];
  it.each(cases)("%s", (_name, c) => {
    const failures = checkRule(
      spec,
      rule(c.op, c.rule),
      exchange(c.op, c.query, c.status, c.body, c.mediaType),
    );
    expect(failures.length > 0, JSON.stringify(failures)).toBe(c.fails);
  });

  it("meta mirrors: a missing rank type fails, the full list passes", () => {
    const acts = Object.keys(spec.rankWindows.windows);
    const body = (list: string[], limit = spec.rateLimit.limit) => ({
      data: {
        rank_types: list.map((act) => ({ act })),
        categories: spec.categories.items.map(({ id, alias }) => ({ id, alias })),
        price_filter: {
          priced_categories: [...spec.set("priced-category-ids")],
          priced_streams: spec.categories.priced_streams,
        },
        rate_limit: { limit, window_seconds: spec.rateLimit.window_seconds },
        not_provided: spec.notProvided.map(({ id }) => ({ id })),
      },
    });
    const r = rule("getMeta", "meta-mirrors-spec");
    expect(checkRule(spec, r, exchange("getMeta", "", 200, body(acts)))).toEqual([]);
    const missing = checkRule(spec, r, exchange("getMeta", "", 200, body(acts.slice(1))));
    expect(missing.map((f) => f.message)).toEqual([
      `/data/rank_types/*/act must mirror the spec (${acts[0]} missing)`,
    ]);
    // Regression: a manifest stating 120 showed its value only in the collapsed Received list.
    const limit = checkRule(spec, r, exchange("getMeta", "", 200, body(acts, 120)));
    expect(limit.map((f) => f.message)).toEqual([
      `/data/rate_limit/limit must mirror the spec (120 where the spec has ${spec.rateLimit.limit})`,
    ]);
  });
});

describe("conditionHolds and refusingRules", () => {
  it("search with only blank words is refused by search-needs-criterion", () => {
    const op = spec.operation("searchAlerts");
    const parsed = parseRequest(spec, op, new URLSearchParams("q=%7C%20%23&kp="));
    expect(refusingRules(spec, op, parsed).map((r) => r.id)).toEqual(["search-needs-criterion"]);
  });

  it("mip above mxp is refused, mip equal to mxp is not", () => {
    const op = spec.operation("searchAlerts");
    const ids = (q: string) =>
      refusingRules(spec, op, parseRequest(spec, op, new URLSearchParams(q))).map((r) => r.id);
    expect(ids("mip=11&mxp=10")).toEqual(["search-price-bounds-ordered"]);
    expect(ids("mip=10&mxp=10")).toEqual([]);
  });

  it("a credentials condition holds only for that kind of credentials", () => {
    const op = spec.operation("getMyFollowHits");
    const r = rule("getMyFollowHits", "my-follow-credentials");
    const parsed = parseRequest(spec, op, new URLSearchParams("uid=1"));
    expect(conditionHolds(spec, op, r.when, parsed, "invalid")).toBe(true);
    expect(conditionHolds(spec, op, r.when, parsed, "valid")).toBe(false);
  });
});
