/**
 * Against a plain Prism mock (static examples, no rule layer) the schema-level checks pass and
 * the rule-level ones a static mock cannot honour fail: it refuses nothing the rules refuse,
 * has no rate limit, echoes one example whatever the limit. The report says which kind failed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrism } from "../mocks/prism.ts";
import { formatConsole } from "./reporters/console.ts";
import { runConformance } from "./runner/run.ts";

let prism: Awaited<ReturnType<typeof startPrism>>;

beforeAll(async () => {
  prism = await startPrism({ port: 0 });
}, 60_000);

afterAll(async () => {
  await prism?.close();
});

/** Failures a static mock must have whatever the clock says (examples have fixed timestamps). */
const MUST_FAIL = [
  "rate-limit",
  "rule:rank-content-present",
  "rule:feed-zdm-excludes-cate",
  "rule:search-needs-criterion",
  "rule:search-price-bounds-ordered",
  "rule:search-price-filter-unpriced-category",
  "rule:shenghuo-no-cates-otherwise",
];

describe("a plain Prism mock", () => {
  it("fails the rule-level checks a static mock cannot honour, and the report says so", async () => {
    const report = await runConformance({ baseUrl: prism.url, seed: 42, skipSlow: true, randomRuns: 0 });
    const failed = report.checks.filter((c) => c.status === "fail").map((c) => c.name);
    expect(failed).toEqual(expect.arrayContaining(MUST_FAIL));
    for (const name of ["status-code-documented", "response-schema", "no-server-errors", "versioning"]) {
      expect(report.checks.find((c) => c.name === name)?.status).toBe("pass");
    }
    expect(formatConsole(report)).toMatch(/rule-level checks \(x-conformance\): \d+ passed, [1-9]\d* failed/);
  }, 120_000);
});
