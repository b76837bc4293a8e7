/**
 * A relation's first request is one whose answer could show a violation: where the second request
 * takes a field from the first answer's items, the first searches a word of alerts carrying it.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { vocabularyFrom } from "../arbitraries/vocabulary.ts";
import { defaultRegistry } from "../registry.ts";
import { candidatesByOperation, validCasesOf } from "../runner/plan.ts";
import type { Check, PlanContext } from "../types.ts";

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
