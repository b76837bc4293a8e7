/**
 * Varnish (deploy/varnish/) in front of the reference server: the harness starts and stops
 * cleanly; behind the recommended pass-through the whole suite passes; behind a TTL override that
 * stores 429s it fails on exactly what that breaks. The causes the report should state for it are
 * in a describe of their own. Skipped without varnishd, but in CI, where that fails
 * (test/required-tool.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { requireTool } from "../required-tool.ts";
import {
  failedChecks,
  findings,
  replayingCacheRun,
  shortWindowRun,
  unexercised,
  unexplained,
} from "./behind-proxy.ts";
import { closeAllForeground } from "./foreground.ts";
import { harnessLaws } from "./harness-laws.ts";
import { startVarnish, VARNISH_TEMPLATES, varnishBinary } from "./varnish.ts";

const runnable = requireTool({
  name: "varnishd",
  available: varnishBinary() !== undefined,
  install: "apt-get install -y varnish",
  needs: "the suite through Varnish",
});

const store429 = replayingCacheRun((upstream) => startVarnish("store-429", upstream));

// A run past its test timeout goes on, its proxy with it: stopped here at the latest.
afterAll(closeAllForeground);

describe.runIf(runnable)("Varnish in front of the reference server", () => {
  describe("the harness", () => {
    harnessLaws({
      name: "varnish",
      start: (upstream, templatesDir) => startVarnish("recommended", upstream, templatesDir),
      templatesDir: VARNISH_TEMPLATES,
      template: "recommended.vcl",
      badLine: "sub vcl_recv { set req.nonsense = 1; }",
      ownAnswers: [
        [
          "a header line over its 32 KB http_req_hdr_len with an empty 400",
          {
            path: "/api/v1/meta",
            headers: { "x-pad": "a".repeat(33_000) },
            status: 400,
            contentType: undefined,
          },
        ],
      ],
    });
  });

  it("recommended.vcl, spread: the whole suite passes with every check evidenced, no cause", async () => {
    const report = await shortWindowRun((upstream) => startVarnish("recommended", upstream));
    expect(failedChecks(report), JSON.stringify(findings(report))).toEqual([]);
    expect(unexercised(report)).toEqual([]);
    expect(report.causes).toEqual([]);
    expect(report.verdict).toBe("passed");
  }, 90_000);

  it("store-429.vcl, spread: fails on the 429 replayed from storage and the limit it breaks", async () => {
    const report = await store429();
    expect(report.verdict).toBe("failed");
    expect(failedChecks(report), JSON.stringify(findings(report))).toEqual(["cache-control", "rate-limit"]);
    const codes = report.checks.flatMap((c) => c.violations.map((v) => v.code));
    // The stored 429 shows its Age; the limited client is still refused past its Retry-After.
    expect(codes).toContain("cache-control/from-cache");
    expect(codes).toContain("rate-limit/not-served-after-wait");
  }, 90_000);
});

describe("Varnish storing 429s: the causes the report should state", () => {
  it("names one cause, a cache answering from storage, and explains every finding with it", async () => {
    const report = await store429();
    expect(report.causes.map((c) => c.id)).toHaveLength(1);
    expect(report.causes[0]?.id).toMatch(/cache|replay/);
    // What follows from the cache (the limit's consequences, RateLimit-* of another client) goes under it.
    expect(unexplained(report)).toEqual([]);
  }, 90_000);
});
