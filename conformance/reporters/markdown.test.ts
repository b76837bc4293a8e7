import { describe, expect, it } from "vitest";
import type { RunReport } from "../runner/report.ts";
import { formatMarkdown } from "./markdown.ts";

const check = (name: string, status: RunReport["checks"][number]["status"], extra = {}) => ({
  name,
  title: "t",
  verifies: "v",
  source: "s",
  severity: "high" as const,
  status,
  cases: 1,
  informative: status === "pass" ? 1 : 0,
  planned: 1,
  sent: 1,
  violations: [],
  ...extra,
});

const report: RunReport = {
  seed: 7,
  baseUrl: "https://api.example.com",
  mode: "one-address",
  startedAt: "2026-11-26T00:00:00.000Z",
  durationMs: 125_000,
  requests: 177,
  unexpected429: 0,
  requireEvidence: false,
  verdict: "failed",
  passed: false,
  causes: [],
  notes: ["one source address: per-IP counting not tested"],
  checks: [
    check("cors", "pass"),
    check("rule:search-block-words", "fail", {
      violations: [
        {
          check: "rule:search-block-words",
          code: "rule:search-block-words",
          title: "No result contains a kp word | at /data/0",
          severity: "high",
          operation: "searchAlerts",
          received: "x",
          documented: "y",
          request: "curl -i 'https://api.example.com/api/v1/search?kp=x'",
          seed: 7,
          replay:
            "dealkit conformance --base-url https://api.example.com --seed 7 --only 'rule:search-block-words'",
        },
      ],
    }),
    check("rule:my-follow-count-within-limit", "not-exercised", {
      reason: "no account: give --uid and --api-key",
    }),
  ],
};

/** The job summary: verdict first, then what failed with how to reproduce it, then what was not exercised. */
describe("Markdown report", () => {
  it("leads with the verdict and the run, lists each failure with its curl line and replay", () => {
    const md = formatMarkdown(report);
    expect(md.split("\n")[0]).toBe("## ❌ dealkit conformance: 1 check failed");
    expect(md).toContain(
      "177 requests in 125 s · 3 checks: 1 passed, 1 failed, 1 not exercised, 0 not selected",
    );
    expect(md).toContain(
      "| `rule:search-block-words` | searchAlerts | No result contains a kp word \\| at /data/0 |",
    );
    expect(md).toContain("curl -i 'https://api.example.com/api/v1/search?kp=x'");
    expect(md).toContain(
      "# dealkit conformance --base-url https://api.example.com --seed 7 --only 'rule:search-block-words'",
    );
    expect(md).toContain("- `rule:my-follow-count-within-limit`: no account: give --uid and --api-key");
  });

  it("says passed, or that the target could not be judged", () => {
    const passed = { ...report, verdict: "passed" as const, passed: true, checks: [check("cors", "pass")] };
    expect(formatMarkdown(passed).split("\n")[0]).toBe("## ✅ dealkit conformance: passed");
    const stopped = {
      ...report,
      checks: [],
      error: "not the deal-alert API",
      verdict: "not-judged" as const,
    };
    expect(formatMarkdown(stopped)).toMatch(
      /^## ⚠️ dealkit conformance: could not judge the target\n\nnot the deal-alert API/,
    );
  });
});
