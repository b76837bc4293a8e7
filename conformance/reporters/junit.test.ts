import { describe, expect, it } from "vitest";
import type { RunReport } from "../runner/report.ts";
import { formatJunit } from "./junit.ts";

const report: RunReport = {
  seed: 7,
  baseUrl: "http://127.0.0.1:1",
  startedAt: "2026-11-25T00:00:00.000Z",
  durationMs: 1234,
  mode: "spread",
  requests: 3,
  unexpected429: 0,
  causes: [],
  notes: [],
  requireEvidence: false,
  verdict: "failed",
  passed: false,
  checks: [
    {
      name: "cors",
      title: "t",
      verifies: "v",
      source: "s",
      severity: "medium",
      status: "pass",
      cases: 1,
      informative: 1,
      planned: 1,
      sent: 1,
      violations: [],
    },
    {
      name: "rule:x",
      title: "t",
      verifies: "v",
      source: "s",
      severity: "high",
      status: "not-exercised",
      cases: 0,
      informative: 0,
      planned: 1,
      sent: 1,
      violations: [],
      reason: "no <case>",
    },
    {
      name: "no-server-errors",
      title: "t",
      verifies: "v",
      source: "s",
      severity: "critical",
      status: "fail",
      cases: 1,
      informative: 1,
      planned: 1,
      sent: 1,
      violations: [
        {
          check: "no-server-errors",
          code: "no-server-errors",
          title: 'answered 500 to q=<"&\u0001>',
          severity: "critical",
          operation: "searchAlerts",
          received: "\u0000 & <",
          documented: "< 500",
          request: "curl -i 'http://x/?q=%00'",
          seed: 7,
          replay: "dealkit conformance --seed 7 --only no-server-errors",
        },
      ],
    },
  ],
};

/** Well-formedness without an XML library: no raw markup characters or control characters inside, balanced tags. */
function wellFormed(xml: string): boolean {
  const control = [...xml].some((ch) => {
    const c = ch.codePointAt(0) ?? 0;
    return c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d;
  });
  if (control) return false;
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z?][^\s/>]*)[^>]*?(\/?)>/g)) {
    const [, close, name, self] = m;
    if (name?.startsWith("?") || self) continue;
    if (close) {
      if (stack.pop() !== name) return false;
    } else stack.push(name ?? "");
  }
  return stack.length === 0 && !/&(?!amp;|lt;|gt;|quot;)/.test(xml);
}

describe("JUnit report", () => {
  it("is well-formed, with a failure, a skipped case and the seed", () => {
    const xml = formatJunit(report);
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('<testsuites name="dealkit conformance" tests="3" failures="1" skipped="1"');
    expect(xml).toContain('<skipped message="not exercised: no &lt;case&gt;"/>');
    expect(xml).toContain('<property name="seed" value="7"/>');
    expect(xml).toMatch(
      /<testcase classname="conformance" name="no-server-errors">\s*<failure message="answered 500 to q=&lt;&quot;&amp;\uFFFD&gt;"/,
    );
  });

  it("fails a check without evidence under --require-evidence, and reports a stopped run as an error", () => {
    const strict = formatJunit({ ...report, requireEvidence: true });
    expect(strict).toContain('failures="2"');
    expect(strict).toMatch(/<failure message="not exercised: no &lt;case&gt;" type="not-exercised">/);
    const stopped = formatJunit({ ...report, checks: [], error: "not the deal-alert API" });
    expect(wellFormed(stopped)).toBe(true);
    expect(stopped).toContain('errors="1"');
    expect(stopped).toContain('<error message="not the deal-alert API"/>');
  });

  it("shows a known finding on its passing case, and an expired entry as an error", () => {
    const known = report.checks[2]?.violations[0];
    if (!known) throw new Error("fixture changed");
    const xml = formatJunit({
      ...report,
      checks: [
        {
          ...report.checks[2],
          status: "pass",
          violations: [{ ...known, known: { reason: "OPS-1", expires: "2026-12-31" } }],
        },
      ] as RunReport["checks"],
      expiredKnown: ["check cors (until 2026-11-01: OPS-2)"],
    });
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('failures="0" skipped="0" errors="1"');
    expect(xml).toContain("known (until 2026-12-31: OPS-1): answered 500");
    expect(xml).toContain('<error message="known finding expired: check cors (until 2026-11-01: OPS-2)"/>');
  });
});
