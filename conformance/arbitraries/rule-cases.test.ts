import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { ruleCases } from "./rule-cases.ts";
import { FALLBACK_VOCABULARY } from "./vocabulary.ts";

const spec = await loadSpec();
const plan = (operationId: string) =>
  ruleCases(spec, spec.operation(operationId), FALLBACK_VOCABULARY).map((c) =>
    new URLSearchParams(c.query).toString(),
  );

describe("rule-planned cases", () => {
  it("put rank limit on both sides of 50", () => {
    const cases = plan("getRank");
    expect(cases).toContain("act=yixiaoshi&limit=50");
    expect(cases).toContain("act=yixiaoshi&limit=51");
    expect(cases).toContain(""); // act missing
    expect(cases).toContain("act=yixiaoshi&limit=49");
  });

  it("send search with all criteria blank, and a price filter on an unpriced category", () => {
    const cases = plan("searchAlerts");
    expect(cases).toContain("q=&kp=&mip=&mxp=");
    expect(cases).toContain("q=%7C%23&kp=&mip=&mxp=");
    expect(cases.some((c) => /mip=/.test(c) && /cate=zuankeba/.test(c))).toBe(true);
    expect(cases).toContain("mip=1.01&mxp=0.01"); // mip above mxp
    expect(cases).toContain("mip=0.01&mxp=0.01"); // and equal
  });

  it("pick values meeting every predicate on a parameter (cate present and not all), repairing a refused case", () => {
    expect(plan("searchAlerts")).toContain(
      `q=${encodeURIComponent(FALLBACK_VOCABULARY.words[0] ?? "")}&cate=zuankeba`,
    );
  });
});
