/** Every reporter puts the root causes first, and ties each finding to the cause that explains it. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../runner/report.ts";
import type { Violation } from "../types.ts";
import { formatConsole } from "./console.ts";
import { formatJunit } from "./junit.ts";
import { formatMarkdown } from "./markdown.ts";

const TITLE =
  "A limiter in front of the API answers the rate limit, not the API's own: its 429s are text/html, no CORS, no RateLimit-*, no Retry-After, Server: nginx";

const row = (check: string, title: string, cause?: string): Violation => ({
  check,
  code: check,
  title,
  severity: "high",
  operation: "getMeta",
  received: "r",
  documented: "d",
  request: "curl -i 'http://t/api/v1/meta'",
  seed: 1,
  replay: `dealkit conformance --seed 1 --only ${check}`,
  ...(cause ? { cause } : {}),
});

const failing = (name: string, violations: Violation[]) => ({
  name,
  title: name,
  verifies: "v",
  source: "s",
  severity: "high" as const,
  status: "fail" as const,
  cases: 1,
  informative: 1,
  planned: 1,
  sent: 1,
  violations,
});

const report: RunReport = {
  seed: 1,
  baseUrl: "http://t",
  mode: "one-address",
  startedAt: "2026-11-26T00:00:00.000Z",
  durationMs: 1000,
  requests: 10,
  unexpected429: 0,
  requireEvidence: false,
  verdict: "failed",
  passed: false,
  notes: [],
  causes: [
    {
      id: "limiter-in-front",
      severity: "high",
      title: TITLE,
      evidence: ["11 answers 429: text/html, no CORS"],
      checks: ["content-type"],
      operations: ["getMeta"],
      count: 1,
    },
  ],
  checks: [
    failing("content-type", [
      row("content-type", "getMeta 429 has an undocumented content type", "limiter-in-front"),
    ]),
    failing("rule:rank-order", [row("rule:rank-order", "entries out of order")]),
  ],
};

describe("root causes in the reports", () => {
  it("console: the cause headline comes first, then the table, then the rows under their cause, then the rest", () => {
    const text = formatConsole(report);
    const lines = text.split("\n");
    expect(lines.slice(1, 3)).toEqual(["Root causes (1 findings explained):", `✗ [high] ${TITLE}`]);
    const at = (s: string) => text.indexOf(s);
    expect(at("check ")).toBeGreaterThan(at(TITLE));
    expect(at(`── ${TITLE}`)).toBeLessThan(at("✗ content-type"));
    expect(at("── other findings")).toBeLessThan(at("✗ rule:rank-order"));
    expect(at("✗ content-type")).toBeLessThan(at("── other findings"));
  });

  it("markdown: a Root causes section before the failures, each failure naming its cause", () => {
    const md = formatMarkdown(report);
    expect(md.indexOf("### Root causes")).toBeLessThan(md.indexOf("### Failures"));
    expect(md).toContain(`- **[high] ${TITLE}**: explains 1 finding of \`content-type\` (getMeta)`);
    expect(md).toMatch(
      /\| `content-type` \| getMeta \| getMeta 429 has an undocumented content type \| root cause 1 \|/,
    );
    expect(md).toMatch(/\| `rule:rank-order` \| getMeta \| entries out of order \| {2}\|/);
  });

  it("JUnit: a failing case per cause before the checks, and the check's message names its cause", () => {
    const xml = formatJunit(report);
    expect(xml.indexOf('name="cause: limiter-in-front"')).toBeLessThan(xml.indexOf('name="content-type"'));
    expect(xml).toContain('tests="3" failures="3"');
    expect(xml).toContain(`message="getMeta 429 has an undocumented content type (root cause: ${TITLE})"`);
  });
});
