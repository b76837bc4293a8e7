/**
 * HAProxy (deploy/haproxy/) in front of the reference server: the harness starts and stops
 * cleanly; behind the recommended pass-through the whole suite passes; behind a stick-table limiter
 * that counts CORS preflights it fails on exactly what that breaks. The causes the report should
 * state for it are in a describe of their own. Skipped without haproxy, but in CI, where that
 * fails (test/required-tool.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { requireTool } from "../required-tool.ts";
import {
  failedChecks,
  findings,
  limiterInFrontRun,
  shortWindowRun,
  unexercised,
  unexplained,
} from "./behind-proxy.ts";
import { closeAllForeground } from "./foreground.ts";
import { HAPROXY_TEMPLATES, haproxyBinary, startHaproxy } from "./haproxy.ts";
import { harnessLaws } from "./harness-laws.ts";

const runnable = requireTool({
  name: "haproxy",
  available: haproxyBinary() !== undefined,
  install: "apt-get install -y haproxy",
  needs: "the suite through HAProxy",
});

/** The limiter's window is HAProxy's 60 s, as the template says. */
const preflightLimiter = limiterInFrontRun((upstream) => startHaproxy("preflight-limiter", upstream));

// A run past its test timeout goes on, its proxy with it: stopped here at the latest.
afterAll(closeAllForeground);

describe.runIf(runnable)("HAProxy in front of the reference server", () => {
  describe("the harness", () => {
    harnessLaws({
      name: "haproxy",
      start: (upstream, templatesDir) => startHaproxy("recommended", upstream, templatesDir),
      templatesDir: HAPROXY_TEMPLATES,
      template: "recommended.cfg",
      badLine: "    no-such-keyword on",
      ownAnswers: [
        [
          "headers past its 32 KB buffer with a 400 HTML page",
          {
            path: "/api/v1/meta",
            headers: { "x-pad": "a".repeat(33_000) },
            status: 400,
            contentType: /^text\/html/,
          },
        ],
      ],
    });
  });

  it("recommended.cfg, spread: the whole suite passes with every check evidenced, no cause", async () => {
    const report = await shortWindowRun((upstream) => startHaproxy("recommended", upstream));
    expect(failedChecks(report), JSON.stringify(findings(report))).toEqual([]);
    expect(unexercised(report)).toEqual([]);
    expect(report.causes).toEqual([]);
    expect(report.verdict).toBe("passed");
  }, 90_000);

  it("preflight-limiter.cfg, spread: fails on HAProxy's own 429s and on refusals before the 60th request", async () => {
    const report = await preflightLimiter();
    expect(report.verdict).toBe("failed");
    expect(failedChecks(report), JSON.stringify(findings(report))).toEqual([
      "content-type",
      "response-headers",
      "cors",
      "cache-control",
      "rate-limit",
    ]);
    const rateLimit = report.checks.find((c) => c.name === "rate-limit")?.violations ?? [];
    // Refused within the 60: the preflights the run sent in the window were counted too.
    expect(rateLimit.map((v) => v.code)).toContain("rate-limit/counts-preflight");
    // HAProxy's own page: text/html, no Retry-After.
    const codes = report.checks.flatMap((c) => c.violations.map((v) => v.code));
    expect(codes).toContain("content-type");
    expect(codes).toContain("response-headers/retry-after");
  }, 90_000);
});

describe("HAProxy counting preflights: the causes the report should state", () => {
  it("names the limiter in front and that it counts CORS preflights, and explains every finding", async () => {
    const report = await preflightLimiter();
    // Preflight counting follows from the limiter in front: it is stated under it, not beside it.
    expect(report.causes.map((c) => [c.id, (c.follows ?? []).map((f) => f.id)])).toEqual([
      ["limiter-in-front", ["limiter-counts-preflight"]],
    ]);
    expect(unexplained(report)).toEqual([]);
  }, 90_000);
});
