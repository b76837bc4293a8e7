// Every limit and rule of the source document (seed/deal-alert-api.md: Endpoints, Errors, Limits,
// Versioning) can be pointed to in the spec. One row per source rule: where it lives, what it says.
import { describe, expect, it } from "vitest";
import { loadSpec } from "./load.ts";

const spec = await loadSpec();
const param = (opId: string, name: string) => {
  const p = spec.operation(opId).parameters.find((x) => x.name === name);
  if (!p) throw new Error(`${opId} has no parameter ${name}`);
  return p;
};
const rule = (opId: string, id: string) => {
  const r = spec.operation(opId).rules.find((x) => x.id === id);
  if (!r) throw new Error(`${opId} has no rule ${id}`);
  return r;
};
const bounds = (opId: string, name: string) => {
  const { minimum, maximum, default: def } = param(opId, name).schema;
  return { minimum, maximum, default: def };
};

const ACTS =
  "yixiaoshi sanxiaoshi liuxiaoshi shierxiaoshi ershisixiaoshi sishibaxiaoshi jintian zuotian qiantian santian wutian qitian shiwutian";

describe.each([
  [
    "rank limit 1 to 300, default 20",
    () => bounds("getRank", "limit"),
    { minimum: 1, maximum: 300, default: 20 },
  ],
  [
    "feed limit 1 to 50, default 20",
    () => bounds("getFeed", "limit"),
    { minimum: 1, maximum: 50, default: 20 },
  ],
  [
    "search limit 1 to 50, default 20",
    () => bounds("searchAlerts", "limit"),
    { minimum: 1, maximum: 50, default: 20 },
  ],
  ["search page default 1", () => param("searchAlerts", "page").schema.default, 1],
  [
    "shenghuo pageSize 1 to 100, default 20",
    () => bounds("listActivities", "pageSize"),
    { minimum: 1, maximum: 100, default: 20 },
  ],
  ["shenghuo page default 1", () => param("listActivities", "page").schema.default, 1],
  ["rank act is required", () => param("getRank", "act").required, true],
  ["the 13 act values, in the source's order", () => param("getRank", "act").schema.enum, ACTS.split(" ")],
  ["each act has a window", () => Object.keys(spec.rankWindows.windows), ACTS.split(" ")],
  ["windows are in Asia/Shanghai", () => spec.rankWindows.timezone, "Asia/Shanghai"],
  [
    "content omitted when limit <= 50",
    () => rule("getRank", "rank-content-omitted").when,
    { query: { limit: { lte: 50 } } },
  ],
  [
    "content present when limit > 50",
    () => rule("getRank", "rank-content-present").when,
    { query: { limit: { gt: 50 } } },
  ],
  ["category stream keeps at most 20", () => rule("getFeed", "feed-category-retention").then.count?.max, 20],
  ["zdm stream keeps at most 30", () => rule("getFeed", "feed-zdm-retention").then.count?.max, 30],
  [
    "feed is a snapshot without paging",
    () => rule("getFeed", "feed-snapshot-no-paging").then.ignores,
    ["page"],
  ],
  [
    "feed has no paging parameter",
    () => spec.operation("getFeed").parameters.some((p) => p.name === "page"),
    false,
  ],
  ["feed type selects zdm", () => param("getFeed", "type").schema.enum, ["zdm"]],
  [
    "search needs one of q/kp/mip/mxp, else 400",
    () => rule("searchAlerts", "search-needs-criterion").then.status,
    400,
  ],
  [
    "price filter on an unpriced category is 200 and empty",
    () => rule("searchAlerts", "search-price-filter-unpriced-category").then,
    { status: 200, empty: "/data", present: ["/meta/price_scope"] },
  ],
  [
    "q words separated by newline, | or #",
    () => param("searchAlerts", "q").words?.separators,
    ["\n", "|", "#"],
  ],
  ["q words combine with OR", () => param("searchAlerts", "q").words?.combine, "any"],
  ["kp words exclude", () => param("searchAlerts", "kp").words?.combine, "none"],
  [
    "every shenghuo record has h5",
    () => rule("listActivities", "shenghuo-h5-on-every-record").then.each?.present,
    ["h5"],
  ],
  [
    "with_cates=1 adds the category list",
    () => rule("listActivities", "shenghuo-cates-when-asked").then.present,
    ["/cates"],
  ],
  [
    "only three kinds carry prices",
    () =>
      [...spec.set("priced-categories")]
        .filter((v) => /^\d+$/.test(v))
        .concat(spec.categories.priced_streams),
    ["10", "30", "zdm"],
  ],
  [
    "60 requests per minute per IP",
    () => [spec.rateLimit.limit, spec.rateLimit.window_seconds, spec.rateLimit.scope],
    [60, 60, "client-ip"],
  ],
  [
    "429 carries Retry-After",
    () => spec.operations.every((op) => op.responses["429"]?.headers["Retry-After"]?.required === true),
    true,
  ],
  [
    "v1 is in the path",
    () =>
      spec.operations
        .filter((op) => op.path.startsWith("/api/"))
        .every((op) => op.path.startsWith(spec.versioning.path_prefix)),
    true,
  ],
  ["fields only added within v1", () => spec.versioning.additive_only, true],
  ["breaking change goes to /api/v2", () => spec.versioning.successor_path_prefix, "/api/v2"],
  ["v1 stays at least 6 months", () => spec.versioning.min_support_months_after_successor, 6],
  ["browsers may call cross-origin", () => spec.cors.allow_origin, "*"],
  [
    "CORS exposes Retry-After and RateLimit-*",
    () => spec.cors.expose_headers,
    ["Retry-After", ...spec.rateLimit.headers],
  ],
] as const)("source rule: %s", (_name, locate, want) => {
  it("is in the spec", () => {
    expect(locate()).toEqual(want);
  });
});

describe("every operation", () => {
  it.each(spec.operations.map((op) => [op.operationId, op] as const))(
    "%s documents 429 and CORS headers",
    (_id, op) => {
      for (const response of Object.values(op.responses)) {
        expect(Object.keys(response.headers)).toEqual(
          expect.arrayContaining(["Access-Control-Allow-Origin", ...spec.rateLimit.headers]),
        );
      }
      expect(op.responses["429"]).toBeDefined();
    },
  );

  it.each(spec.operations.filter((op) => op.parameters.length > 0).map((op) => [op.operationId] as const))(
    "%s takes parameters and documents 400",
    (id) => expect(spec.operation(id).responses["400"]).toBeDefined(),
  );

  it("only the personal streams are key-protected, and they document 401", () => {
    const secured = spec.operations.filter((op) => op.secured).map((op) => op.path);
    expect(secured).toEqual(["/api/v1/my/follow", "/api/v1/my/push"]);
    for (const op of spec.operations) expect(op.responses["401"] !== undefined).toBe(op.secured);
  });

  it("rule ids are unique across the document", () => {
    const ids = spec.rules().map(({ rule }) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("problem types named by rules exist in x-problem-types", () => {
    for (const { rule } of spec.rules()) {
      const type = rule.then.problem?.type;
      if (type) expect(spec.problemTypes[type], rule.id).toBeDefined();
    }
  });

  it("parameters named by rules exist on their operation", () => {
    for (const { operation, rule } of spec.rules()) {
      const names = new Set(operation.parameters.map((p) => p.name));
      const mentioned = [
        ...Object.keys(rule.when?.query ?? {}),
        ...(rule.when?.anyOf ?? []).flatMap((c) => Object.keys(c.query ?? {})),
        ...(rule.then.problem?.params ?? []),
      ];
      for (const name of mentioned) expect(names.has(name), `${rule.id}: ${name}`).toBe(true);
    }
  });

  it("the cate enum lists all, every category ID and every alias", () => {
    const cate = param("getFeed", "cate").schema.enum as string[];
    const want = [spec.categories.all_alias, ...spec.categories.items.flatMap((c) => [c.alias, c.id])];
    expect([...cate].sort()).toEqual([...want].sort());
  });
});
