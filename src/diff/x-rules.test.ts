import { describe, expect, it } from "vitest";
import { diffDocuments } from "./diff.ts";
import { type Doc, diffEdit, get, relation, rule, rulesOf, spec, TODAY } from "./testing.ts";

type Case = [string, { given: (d: Doc) => void; want: string[] }];

const category = (d: Doc, alias: string) => d["x-categories"].items.find((c: Doc) => c.alias === alias);

/** The x-rules: what JSON Schema cannot state, judged by which way each moves for a client. */
// biome-ignore format: a table reads best one case per line
const extensions: Case[] = [
  ["rate limit lowered", { given: (d) => { d["x-rate-limit"].limit = 30; }, want: ["rate-limit-tightened"] }],
  ["rate window raised", { given: (d) => { d["x-rate-limit"].window_seconds = 120; }, want: ["rate-limit-tightened"] }],
  ["rate limit raised", { given: (d) => { d["x-rate-limit"].limit = 120; }, want: ["rate-limit-loosened"] }],
  ["rate window lowered", { given: (d) => { d["x-rate-limit"].window_seconds = 30; }, want: ["rate-limit-loosened"] }],
  ["bigger burst, lower rate", { given: (d) => { d["x-rate-limit"].limit = 120; d["x-rate-limit"].window_seconds = 300; }, want: ["rate-limit-tightened"] }],
  ["same rate, smaller burst", { given: (d) => { d["x-rate-limit"].limit = 30; d["x-rate-limit"].window_seconds = 30; }, want: ["rate-limit-tightened"] }],
  ["refused requests now counted", { given: (d) => { d["x-rate-limit"].counts_refused = true; }, want: ["rate-limit-tightened"] }],
  ["preflights now counted", { given: (d) => { d["x-rate-limit"].counts_preflight = true; }, want: ["rate-limit-tightened"] }],
  ["rate-limit header dropped", { given: (d) => d["x-rate-limit"].headers.pop(), want: ["response-header-removed"] }],
  ["429 status changed", { given: (d) => { d["x-rate-limit"].status = 503; }, want: ["rate-limit-signal-changed"] }],
  ["Retry-After format changed", { given: (d) => { d["x-rate-limit"].retry_after = "http-date"; }, want: ["rate-limit-signal-changed"] }],
  ["rate-limit algorithm changed", { given: (d) => { d["x-rate-limit"].algorithm = "token-bucket"; }, want: ["rate-limit-changed"] }],
  ["CORS origin narrowed", { given: (d) => { d["x-cors"].allow_origin = "https://xianbao.fun"; }, want: ["cors-narrowed"] }],
  ["CORS exposed header lost", { given: (d) => d["x-cors"].expose_headers.shift(), want: ["cors-narrowed"] }],
  ["CORS preflight method lost", { given: (d) => { d["x-cors"].preflight.allow_methods = ["GET"]; }, want: ["cors-narrowed"] }],
  ["CORS preflight header lost", { given: (d) => { d["x-cors"].preflight.allow_headers = ["Content-Type"]; }, want: ["cors-narrowed"] }],
  ["CORS no longer on 429", { given: (d) => { d["x-cors"].on = ["success", "client-error", "unauthorized"]; }, want: ["cors-narrowed"] }],
  ["CORS exposed header added", { given: (d) => d["x-cors"].expose_headers.push("X-Request-Id"), want: ["cors-widened"] }],
  ["CORS max-age lowered", { given: (d) => { d["x-cors"].preflight.max_age_seconds = 600; }, want: ["documentation-changed"] }],
  ["query cap lowered", { given: (d) => { d["x-query-string"].max_length = 2048; }, want: ["query-length-lowered"] }],
  ["query cap raised", { given: (d) => { d["x-query-string"].max_length = 8192; }, want: ["query-length-raised"] }],
  ["query cap dropped", { given: (d) => delete d["x-query-string"], want: ["query-length-raised"] }],
  ["public answers now cacheable", { given: (d) => { d["x-caching"].answers[2].cache_control = [["max-age=60"]]; }, want: ["caching-loosened"] }],
  ["personal answers kept by the browser only", { given: (d) => { d["x-caching"].answers[0].cache_control = [["private", "max-age=60"]]; }, want: ["caching-changed"] }],
  ["preflight answered 200", { given: (d) => { d["x-cors"].preflight.status = 200; }, want: ["cors-preflight-status-changed"] }],
  ["preflight answered 404", { given: (d) => { d["x-cors"].preflight.status = 404; }, want: ["cors-narrowed"] }],
  ["caching prose changed", { given: (d) => { d["x-caching"].policy += " More."; }, want: ["documentation-changed"] }],
  ["a coding dropped", { given: (d) => d["x-compression"].codings.pop(), want: ["compression-changed"] }],
  ["priced category unpriced", { given: (d) => { category(d, "weibo").priced = false; }, want: ["priced-kind-dropped"] }],
  ["priced stream dropped", { given: (d) => { d["x-categories"].priced_streams = []; }, want: ["priced-kind-dropped"] }],
  ["category now priced", { given: (d) => { category(d, "douban").priced = true; }, want: ["priced-kind-added"] }],
  ["category removed", { given: (d) => d["x-categories"].items.pop(), want: ["category-removed"] }],
  ["priced category removed", { given: (d) => { d["x-categories"].items = d["x-categories"].items.filter((c: Doc) => c.alias !== "haodan"); }, want: ["category-removed", "priced-kind-dropped"] }],
  ["category alias changed", { given: (d) => { category(d, "kuan").alias = "coolapk"; }, want: ["category-changed"] }],
  ["category renamed", { given: (d) => { category(d, "kuan").name = "酷安网"; }, want: ["documentation-changed"] }],
  ["category added", { given: (d) => d["x-categories"].items.push({ id: "50", alias: "tieba", name: "贴吧", kind: "forum", priced: false }), want: ["category-added"] }],
  ["rank window span changed", { given: (d) => { d["x-rank-windows"].windows.yixiaoshi.hours = 2; }, want: ["rank-window-changed"] }],
  ["rank window removed", { given: (d) => delete d["x-rank-windows"].windows.shiwutian, want: ["rank-window-removed"] }],
  ["rank window added", { given: (d) => { d["x-rank-windows"].windows.sanshitian = { label: "三十天", kind: "rolling", hours: 720 }; }, want: ["rank-window-added"] }],
  ["rank order changed", { given: (d) => d["x-rank-windows"].order.reverse(), want: ["rank-window-changed"] }],
  ["rank window relabelled", { given: (d) => { d["x-rank-windows"].windows.jintian.label = "今日"; }, want: ["documentation-changed"] }],
  ["problem type removed", { given: (d) => delete d["x-problem-types"]["not-found"], want: ["problem-type-removed"] }],
  ["problem type status changed", { given: (d) => { d["x-problem-types"]["invalid-parameter"].status = 422; }, want: ["problem-type-changed"] }],
  ["problem type added", { given: (d) => { d["x-problem-types"].gone = { status: 410, title: "Gone", detail: "Retired." }; }, want: ["problem-type-added"] }],
  ["support period shortened", { given: (d) => { d["x-versioning"].min_support_months_after_successor = 3; }, want: ["support-period-shortened"] }],
  ["head cap lowered", { given: (d) => { d["x-request-gate"].head_max_bytes = 8192; }, want: ["request-head-cap-lowered"] }],
  ["head cap raised", { given: (d) => { d["x-request-gate"].head_max_bytes = 32768; }, want: ["request-head-cap-raised"] }],
  ["must-be-served level lowered (more slack)", { given: (d) => { d["x-request-gate"].slack_bytes = 1024; }, want: ["request-head-cap-lowered"] }],
  ["proxy default named lower", { given: (d) => { d["x-request-gate"].served_beyond_bytes = 4096; }, want: ["documentation-changed"] }],
  ["refusal status changed", { given: (d) => { d["x-request-gate"].refusals["head-too-large"].status = 413; }, want: ["request-gate-answer-changed"] }],
  ["refusal problem type changed", { given: (d) => { d["x-request-gate"].refusals["unknown-method"].problem = "malformed-request"; }, want: ["request-gate-answer-changed"] }],
  ["encoded slash answered otherwise", { given: (d) => { d["x-request-gate"].encoded_slash.status = 400; }, want: ["request-gate-answer-changed"] }],
  ["refusals without CORS", { given: (d) => { d["x-request-gate"].answered.cors = false; }, want: ["cors-narrowed"] }],
  ["refusals no longer counted", { given: (d) => { d["x-request-gate"].answered.counted = false; }, want: ["rate-limit-loosened"] }],
  ["connection kept open after a refusal", { given: (d) => { d["x-request-gate"].answered.connection = "keep-alive"; }, want: ["request-gate-changed"] }],
  ["refusal kind added", { given: (d) => { d["x-request-gate"].refusals["too-many-headers"] = { status: 431, problem: "headers-too-large" }; }, want: ["request-gate-refusal-added"] }],
  ["refusal kind removed", { given: (d) => delete d["x-request-gate"].refusals["headers-timeout"], want: ["request-gate-refusal-removed"] }],
  ["request gate removed", { given: (d) => delete d["x-request-gate"], want: ["request-gate-removed"] }],
  ["client tolerance lowered", { given: (d) => { d["x-client-rules"].rules[0].parameters.tolerance_seconds = 0.01; }, want: ["client-rule-tightened"] }],
  ["client tolerance raised", { given: (d) => { d["x-client-rules"].rules[1].parameters.max_refusals = 10; }, want: ["client-rule-loosened"] }],
  ["client key names grown and shrunk", { given: (d) => { d["x-client-rules"].rules[4].parameters.query_names = ["api_key", "secret"]; }, want: ["client-rule-loosened", "client-rule-tightened"] }],
  ["client rule pointer changed", { given: (d) => { d["x-client-rules"].rules[0].parameters.refusal_status = { spec: "/x-rate-limit/limit" }; }, want: ["client-rule-changed"] }],
  ["client rule added", { given: (d) => d["x-client-rules"].rules.push({ id: "client-sends-user-agent", summary: "s", source: "s", parameters: {}, reason: "r" }), want: ["client-rule-added"] }],
  ["client rule removed", { given: (d) => d["x-client-rules"].rules.pop(), want: ["client-rule-removed"] }],
  ["client rule reason changed", { given: (d) => { d["x-client-rules"].rules[2].reason = "Shorter."; }, want: ["documentation-changed"] }],
  ["not-provided capability added", { given: (d) => d["x-not-provided"].push({ id: "export", description: "No bulk export." }), want: ["documentation-changed"] }],
];

/** x-conformance: each rule is a promise, named by its id in every finding. */
// biome-ignore format: a table reads best one case per line
const conformance: Case[] = [
  ["feed retention lowered", { given: (d) => { rule(d, "/api/v1/feed", "feed-category-retention").then.count.max = 10; }, want: ["retention-lowered"] }],
  ["zdm retention lowered", { given: (d) => { rule(d, "/api/v1/feed", "feed-zdm-retention").then.count.max = 20; }, want: ["retention-lowered"] }],
  ["zdm retention raised", { given: (d) => { rule(d, "/api/v1/feed", "feed-zdm-retention").then.count.max = 40; }, want: ["retention-raised"] }],
  ["omission threshold lowered", { given: (d) => { rule(d, "/api/v1/rank", "rank-content-omitted").when.query.limit.lte = 30; }, want: ["omission-threshold-changed"] }],
  ["presence threshold raised", { given: (d) => { rule(d, "/api/v1/rank", "rank-content-present").when.query.limit.gt = 100; }, want: ["omission-threshold-changed"] }],
  ["omission operator changed", { given: (d) => { rule(d, "/api/v1/rank", "rank-content-omitted").when.query.limit = { lt: 50 }; }, want: ["x-conformance-rule-changed"] }],
  ["rule removed", { given: (d) => { get(d, "/api/v1/rank")["x-conformance"] = get(d, "/api/v1/rank")["x-conformance"].filter( (r: Doc) => r.id !== "rank-order", ); }, want: ["x-conformance-rule-removed"] }],
  ["expectation weakened", { given: (d) => delete rule(d, "/api/v1/search", "search-price-range").then.each.present, want: ["x-conformance-rule-changed"] }],
  ["expected status changed", { given: (d) => { rule(d, "/api/v1/rank", "rank-act-required").then.status = 422; }, want: ["x-conformance-rule-changed"] }],
  ["condition changed", { given: (d) => { rule(d, "/api/v1/shenghuo", "shenghuo-cates-when-asked").when.query.with_cates.eq = "true"; }, want: ["x-conformance-rule-changed"] }],
  ["order rule changed", { given: (d) => rule(d, "/api/v1/rank", "rank-order").then.order.by.pop(), want: ["x-conformance-rule-changed"] }],
  ["rule summary changed", { given: (d) => { rule(d, "/api/v1/rank", "rank-order").summary = "Ordered by comments."; }, want: ["documentation-changed"] }],
  // A refusing rule (4xx) turns served requests into 400s; removing one only accepts more.
  ["refusing rule added", { given: (d) => get(d, "/api/v1/rank")["x-conformance"].unshift({ id: "rank-limit-even", when: { query: { limit: { gt: 200 } } }, then: { status: 400, problem: { params: ["limit"] } } }), want: ["x-conformance-refusal-added"] }],
  ["refusing rule on every request", { given: (d) => get(d, "/api/v1/meta")["x-conformance"].unshift({ id: "meta-closed", then: { status: 403 } }), want: ["x-conformance-refusal-added"] }],
  ["refusing rule removed", { given: (d) => { get(d, "/api/v1/rank")["x-conformance"] = get(d, "/api/v1/rank")["x-conformance"].filter((r: Doc) => r.id !== "rank-act-required"); }, want: ["x-conformance-refusal-removed"] }],
  // Only the id changed: the same promise, found by its condition and expectation.
  ["refusing rule renamed", { given: (d) => { rule(d, "/api/v1/rank", "rank-act-required").id = "rank-act-needed"; }, want: ["documentation-changed"] }],
  ["refusing rule renamed and split off another way", { given: (d) => { const r = rule(d, "/api/v1/rank", "rank-act-required"); r.id = "rank-act-needed"; r.then.problem.params = ["act", "limit"]; }, want: ["x-conformance-refusal-removed", "x-conformance-rule-added"] }],
  ["rule added", { given: (d) => get(d, "/api/v1/meta")["x-conformance"].push({ id: "meta-fast", then: { status: 200 } }), want: ["x-conformance-rule-added"] }],
  ["rules reordered", { given: (d) => get(d, "/api/v1/feed")["x-conformance"].reverse(), want: [] }],
  // Examples illustrate a rule (the spec's tests hold them to it): editing them is documentation, never a contract change.
  ["rule example added", { given: (d) => rule(d, "/api/v1/rank", "rank-order").examples.violates.push({ status: 200, body: { data: [] } }), want: ["documentation-changed"] }],
  ["rule examples replaced", { given: (d) => { rule(d, "/api/v1/feed", "feed-snapshot-no-paging").examples.satisfies = [{ answers: [] }]; }, want: ["documentation-changed"] }],
  ["retention raised, its examples with it", { given: (d) => { const r = rule(d, "/api/v1/feed", "feed-zdm-retention"); r.then.count.max = 40; r.examples.violates = []; }, want: ["retention-raised", "documentation-changed"] }],
];

/** x-relations: how answers relate, each a promise named by its id. */
// biome-ignore format: a table reads best one case per line
const relations: Case[] = [
  ["relation removed", { given: (d) => { get(d, "/api/v1/search")["x-relations"] = get(d, "/api/v1/search")["x-relations"].filter((r: Doc) => r.id !== "search-or-adds"); }, want: ["x-relation-removed"] }],
  ["relation loosened", { given: (d) => delete relation(d, "/api/v1/search", "search-or-adds").expect.total, want: ["x-relation-changed"] }],
  ["relation variation changed", { given: (d) => { relation(d, "/api/v1/search", "search-pages-disjoint").vary.page = { add: 2 }; }, want: ["x-relation-changed"] }],
  ["relation summary changed", { given: (d) => { relation(d, "/api/v1/rank", "rank-limit-prefix").summary = "Prefix."; }, want: ["documentation-changed"] }],
  ["relation example removed", { given: (d) => relation(d, "/api/v1/search", "search-or-adds").examples.violates.pop(), want: ["documentation-changed"] }],
  ["relation added", { given: (d) => get(d, "/rss.php")["x-relations"] = [{ id: "rss-limit-prefix", summary: "s", source: "s", vary: { q: { addWord: true } }, expect: { superset: true } }], want: ["x-relation-added"] }],
];

describe("x-rules", () => {
  it.each(extensions)("%s", async (_, { given, want }) => {
    expect(rulesOf(await diffEdit(given))).toEqual([...want].sort());
  });
});

describe("x-conformance", () => {
  it.each(conformance)("%s", async (_, { given, want }) => {
    expect(rulesOf(await diffEdit(given))).toEqual([...want].sort());
  });

  it("names the rule id", async () => {
    const r = await diffEdit((d) => {
      rule(d, "/api/v1/feed", "feed-category-retention").then.count.max = 10;
    });
    expect(r.findings[0]?.message).toBe("rule feed-category-retention: count.max 20 → 10");
    expect(r.findings[0]?.location.pointer).toBe("/paths/~1api~1v1~1feed/get/x-conformance/1/then/count/max");
  });

  it("names what documents the rule when only that changed", async () => {
    const r = await diffEdit((d) => {
      rule(d, "/api/v1/rank", "rank-order").examples.satisfies.pop();
    });
    expect(r.findings.map((f) => [f.rule, f.message])).toEqual([
      ["documentation-changed", "rule rank-order: examples changed"],
    ]);
  });
});

describe("refusing rules, by level", () => {
  it("a new refusal is breaking and says what it refuses; a removed one is info", async () => {
    const added = await diffEdit((d) =>
      get(d, "/api/v1/meta")["x-conformance"].unshift({ id: "meta-closed", then: { status: 403 } }),
    );
    expect(added.findings.map((f) => [f.rule, f.level, f.message])).toEqual([
      ["x-conformance-refusal-added", "breaking", "rule meta-closed added: 403 on every request"],
    ]);
    const removed = await diffEdit((d) => {
      get(d, "/api/v1/rank")["x-conformance"] = get(d, "/api/v1/rank")["x-conformance"].filter(
        (r: Doc) => r.id !== "rank-act-required",
      );
    });
    expect(removed.findings.map((f) => [f.rule, f.level])).toEqual([
      ["x-conformance-refusal-removed", "info"],
    ]);
  });
});

describe("x-relations", () => {
  it.each(relations)("%s", async (_, { given, want }) => {
    expect(rulesOf(await diffEdit(given))).toEqual([...want].sort());
  });
});

describe("a transport policy stated for the first time", () => {
  it("is info, one finding per policy", async () => {
    const base = spec();
    for (const key of ["x-query-string", "x-caching", "x-compression"]) delete base[key];
    const r = await diffDocuments(
      { label: "base", raw: base },
      { label: "head", raw: spec() },
      { today: TODAY },
    );
    expect(r.findings.filter((f) => f.rule === "transport-policy-added").map((f) => f.message)).toEqual([
      "x-query-string stated",
      "x-caching stated",
      "x-compression stated",
    ]);
    expect(rulesOf(r)).toEqual(["transport-policy-added"]);
  });
});

describe("the request gate and the client rules stated for the first time", () => {
  const stated = (edit: (base: Doc) => void) => {
    const base = spec();
    edit(base);
    return diffDocuments({ label: "base", raw: base }, { label: "head", raw: spec() }, { today: TODAY });
  };

  it("a gate the description already stated is info; one it did not is a warning", async () => {
    const said = await stated((b) => delete b["x-request-gate"]);
    expect(said.findings.map((f) => [f.rule, f.level])).toEqual([["transport-policy-added", "info"]]);
    const unsaid = await stated((b) => {
      delete b["x-request-gate"];
      b.info.description = b.info.description.replace(/16 KB/g, "a size");
    });
    expect(
      unsaid.findings.filter((f) => f.location.pointer === "/x-request-gate").map((f) => f.rule),
    ).toEqual(["request-gate-added"]);
  });

  it("client rules stated for the first time change no verdict: info", async () => {
    const r = await stated((b) => delete b["x-client-rules"]);
    expect(r.findings.map((f) => [f.rule, f.level, f.message])).toEqual([
      ["client-rules-stated", "info", "x-client-rules stated: 8 rules clients are judged by"],
    ]);
  });
});
