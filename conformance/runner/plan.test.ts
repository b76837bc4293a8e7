import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { vocabularyFrom } from "../arbitraries/vocabulary.ts";
import { defaultRegistry, selectChecks } from "../registry.ts";
import { buildPlan, candidatesByOperation, isPreflightGroup, type PlanInput, requestsOf } from "./plan.ts";

const spec = await loadSpec();
const registry = defaultRegistry(spec);
const account = { uid: "10001", key: "0123456789abcdef0123456789abcdef" };
// What discovery reads from a target: two titles, a priced alert, activities of one category.
const vocabulary = vocabularyFrom(
  [
    { title: "京东 PLUS 会员 红包", cateid: "10", price: 9.9, tags: ["京东"] },
    { title: "京东 立减金 10元", cateid: "16", tags: ["立减金"] },
  ],
  [{ name: "美团外卖 红包", cate: "waimai" }],
  [{ id: "waimai" }],
);

function plan(only?: string[], extra: Partial<PlanInput> = {}) {
  const checks = selectChecks(registry, only);
  return buildPlan({
    spec,
    checks,
    selected: new Set(checks.map((c) => c.name)),
    vocabulary,
    account,
    mode: "one-address",
    rate: { limit: 60, windowSeconds: 60 },
    budget: 218,
    seed: 1,
    spent: 4,
    ...extra,
  });
}

const query = (s: { request: { pathname: string; query: [string, string][] } }) =>
  `${s.request.pathname}?${new URLSearchParams(s.request.query)}`;

describe("the plan", () => {
  const full = plan();

  it("covers every goal a request can serve; with an account, nothing is left uncovered", () => {
    const servable = new Set(
      [...candidatesByOperation(spec, vocabulary, account).values()].flat().flatMap((c) => c.goals),
    );
    const covered = new Set(full.steps.flatMap((s) => s.goals));
    const rules = spec.rules().filter(({ rule }) => !rule.then.ignores && !rule.then.uniformBody);
    for (const { rule } of rules) expect(covered, rule.id).toContain(`rule:${rule.id}`);
    for (const op of spec.operations) expect(covered, op.operationId).toContain(`valid:${op.operationId}`);
    expect([...covered].every((g) => servable.has(g))).toBe(true);
    expect(full.uncovered).toEqual([]);
  });

  it("is the same plan for the same discovery, and fits the budget with exploration for every operation", () => {
    expect(plan()).toEqual(full);
    const groups = requestsOf(full.groups);
    const explored = full.exploration.reduce((n, x) => n + x.runs, 0);
    expect(4 + full.steps.length + groups + explored).toBeLessThanOrEqual(full.budget);
    expect(full.exploration.map((x) => x.operationId)).toEqual(spec.operations.map((o) => o.operationId));
    expect(full.exploration.every((x) => x.runs > 0)).toBe(true);
  });

  it("steers rules toward the target's data: its words, its prices, its busiest category", () => {
    const steps = (goal: string) => full.steps.filter((s) => s.goals.includes(goal)).map(query);
    expect(steps("rule:search-block-words").join()).toContain(`kp=${encodeURIComponent("京东")}`);
    expect(steps("rule:search-price-range").join()).toMatch(/mip=9\.9&mxp=9\.9/);
    expect(steps("rule:rank-content-present").join()).toMatch(/act=shiwutian&limit=51/);
  });

  it("narrowed by --only, keeps the very requests a full run sends for that check, in order", () => {
    const narrow = plan(["rule:rank-entries-in-window"]);
    const fullQueries = full.steps.map(query);
    const narrowQueries = narrow.steps.map(query);
    expect(narrowQueries.length).toBeGreaterThan(12);
    expect(narrowQueries.every((q) => q.startsWith("/api/v1/rank?"))).toBe(true);
    expect(fullQueries.filter((q) => narrowQueries.includes(q))).toEqual(narrowQueries);
    expect(narrow.burst).toBe(false);
  });

  it.each([["response-headers"], ["rate-limit-reset"]])(
    "plans the burst when a selected check judges 429 answers (%s), with preflights for its window",
    (check) => {
      const narrow = plan([check]);
      expect(narrow.burst).toBe(true);
      expect(narrow.groups.some(isPreflightGroup)).toBe(true);
    },
  );

  it("without an account, says which goals only an account can serve", () => {
    const anonymous = plan(undefined, { account: undefined });
    expect(anonymous.uncovered.map((u) => u.goal)).toEqual(
      expect.arrayContaining(["rule:my-follow-count-within-limit", "valid:getMyPushHits"]),
    );
    expect(anonymous.uncovered.every((u) => /account/.test(u.why))).toBe(true);
  });
});
