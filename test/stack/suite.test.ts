/**
 * The suite against a real stack: Debian's nginx (deploy/nginx/) in front of the reference server.
 * Through the recommended config a correct server passes with every check evidenced, from one
 * address on live data too; each faulty config gets exactly the findings it deserves, and the
 * report names its cause first. Skipped without nginx, but in CI, where that fails (test/required-tool.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type RunOptions, runConformance } from "../../conformance/runner/run.ts";
import { requireTool } from "../required-tool.ts";
import { failedChecks, findings, unexercised } from "./behind-proxy.ts";
import { type NginxConfig, type NginxStack, nginxAvailable, serverBehindNginx } from "./nginx.ts";

const runnable = requireTool({
  name: "nginx",
  available: nginxAvailable(),
  install: "apt-get install -y nginx",
  needs: "the suite through Debian's nginx",
});

let stack: NginxStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** The reference server behind nginx, trusting nginx's X-Forwarded-For (the recommended deployment). */
async function behindNginx(config: NginxConfig, server: Record<string, unknown> = {}) {
  stack = await serverBehindNginx(config, server);
  return { url: stack.baseUrl, ...(stack.account ? { account: stack.account } : {}) };
}

describe.runIf(runnable)("the suite through Debian's nginx", () => {
  it("recommended config, spread over loopback addresses: 0 findings, every check evidenced", async () => {
    const target = await behindNginx("recommended", { rateLimit: { windowSeconds: 10 } });
    const report = await runConformance({
      baseUrl: target.url,
      seed: 11,
      rate: { limit: 60, windowSeconds: 10 },
      ...(target.account ? { account: target.account } : {}),
    });
    expect(failedChecks(report), JSON.stringify(findings(report))).toEqual([]);
    expect(unexercised(report)).toEqual([]);
    expect(report.causes).toEqual([]);
  }, 60_000);

  it("recommended config, from one address on live data: 0 findings, every check evidenced", async () => {
    const target = await behindNginx("recommended", { rateLimit: { windowSeconds: 10 }, liveEveryMs: 1000 });
    const report = await runConformance({
      baseUrl: target.url,
      seed: 12,
      addresses: 1,
      rate: { limit: 60, windowSeconds: 10 },
      ...(target.account ? { account: target.account } : {}),
    });
    expect(report.mode).toBe("one-address");
    expect(failedChecks(report), JSON.stringify(findings(report))).toEqual([]);
    expect(unexercised(report)).toEqual([]);
    expect(report.requests).toBeLessThanOrEqual(218);
  }, 90_000);

  const faulty: [NginxConfig, Record<string, unknown>, string[], string[], RegExp][] = [
    [
      "limit-req",
      // nginx's limit_req in place of the server's own limiter.
      { rateLimit: false },
      ["content-type", "response-headers", "cors", "cache-control", "rate-limit"],
      ["limiter-in-front"],
      /^A limiter in front of the API answers the rate limit, not the API's own: its 429s are text\/html, no CORS, no RateLimit-\*, no Retry-After/,
    ],
    [
      "cache",
      {},
      [
        "cache-control",
        "credentials-not-cached",
        "rate-limit",
        "rule:my-follow-credentials",
        "rule:my-push-credentials",
      ],
      ["cache-answered"],
      /^A shared cache in front answers from its storage: it served getMyFollowHits and getMyPushHits without the key/,
    ],
    [
      "error-pages",
      {},
      // Its 4 KB header buffers and nginx's own pages also refuse request-gate's heads and malformed
      // requests with HTML pages (x-request-gate).
      [
        "status-code-documented",
        "valid-inputs-accepted",
        "invalid-inputs-rejected",
        "cors",
        "cache-control",
        "request-gate",
      ],
      // nginx's pages for request-gate's requests explain the most findings: that cause comes first.
      ["another-component-gate", "another-component-414"],
      /^Another component in front \(Server: nginx\) answers requests the API would serve or refuse itself \(an HTML page\)/,
    ],
  ];
  it.each(faulty)(
    "%s: exactly its findings, its cause named first",
    async (config, server, checks, causes, headline) => {
      const target = await behindNginx(config, server);
      const options: RunOptions = {
        baseUrl: target.url,
        seed: 13,
        skipSlow: true,
        ...(target.account ? { account: target.account } : {}),
      };
      const report = await runConformance(options);
      expect(failedChecks(report), JSON.stringify(findings(report))).toEqual(checks);
      expect(report.causes.map((c) => c.id)).toEqual(causes);
      expect(report.causes[0]?.title).toMatch(headline);
      // Every finding is explained by the cause: nothing is left as a row of its own.
      const rows = report.checks.flatMap((c) => c.violations);
      expect(rows.filter((v) => !v.cause).map((v) => v.title)).toEqual([]);
    },
    60_000,
  );
});
