/**
 * Against hostile targets the run ends within its bounds, with the documented exit code, one
 * clear line, and its report files written: never a hang, a crash or a stack trace. Deadlines
 * are shortened (--timeout 1, a 2-second rate window) so each case takes seconds.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, conformanceCommand } from "../main.ts";
import type { RunReport } from "../runner/report.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import {
  droppedConnections,
  type HostileMode,
  hangingEndpoint,
  oversizedHeaders,
  startHostileServer,
} from "./hostile.ts";
import { type Mutation, startProxy } from "./proxy.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-hostile-"));
let upstream: Target;

beforeAll(async () => {
  upstream = await startBundledServer();
});
afterAll(async () => {
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number;
  seconds: number;
  report: RunReport;
  lines: string[];
  junit: string;
}

async function check(baseUrl: string, name: string, options: Partial<CliRun> = {}): Promise<Outcome> {
  const json = join(dir, `${name}.json`);
  const xml = join(dir, `${name}.xml`);
  const lines: string[] = [];
  const started = Date.now();
  const { code } = await conformanceCommand({
    baseUrl,
    seed: 5,
    reports: [
      { format: "json", path: json },
      { format: "junit", path: xml },
    ],
    out: (line) => lines.push(line),
    limits: { deadlineMs: 1000 },
    maxTimeSeconds: 40,
    skipSlow: true,
    randomRuns: 0,
    ...options,
  });
  expect(existsSync(json) && existsSync(xml), "both report files are written").toBe(true);
  return {
    code,
    seconds: (Date.now() - started) / 1000,
    report: JSON.parse(readFileSync(json, "utf8")) as RunReport,
    lines,
    junit: readFileSync(xml, "utf8"),
  };
}

const violations = (r: RunReport, check: string) => r.checks.find((c) => c.name === check)?.violations ?? [];

describe("targets that are not this API, or give no whole answer", () => {
  it.each<[HostileMode, RegExp]>([
    ["html-everywhere", /not the deal-alert API/],
    ["404-everywhere", /^not found: every discovery request got 404/],
    ["trickle", /no answer from the target: .*no whole answer within 1000 ms/],
    ["endless-body", /no answer from the target: .*cap/],
  ])(
    "%s: stops after discovery with exit 2 and one line",
    async (mode, message) => {
      const server = await startHostileServer(mode);
      try {
        const rssBefore = process.memoryUsage().rss;
        const out = await check(server.url, mode);
        expect(out.code).toBe(2);
        expect(out.report.error).toMatch(message);
        expect(out.report.requests).toBeLessThanOrEqual(5);
        expect(out.seconds).toBeLessThan(15);
        expect(out.junit).toContain("<error message=");
        // Regression: a target that is not this API listed about 25 findings under "0 failed".
        expect(out.report.checks.flatMap((c) => c.violations)).toEqual([]);
        expect(out.report.verdict).toBe("not-judged");
        expect(out.lines.join("\n")).not.toMatch(/\n\s+at /);
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
      } finally {
        await server.close();
      }
    },
    30_000,
  );

  // Regression: 644 requests went to /api/v1/api/v1/… and 62 findings with no cause came back.
  it("a base URL that repeats the spec's /api/v1: exit 2 with the fix, nothing sent, no finding", async () => {
    const out = await check(`${upstream.baseUrl}/api/v1`, "repeated-prefix");
    expect(out.code).toBe(2);
    expect(out.report.error).toBe(
      `--base-url ${upstream.baseUrl}/api/v1 ends with /api/v1, which the spec's paths already carry (/api/v1/meta): every request would go to /api/v1/api/v1/meta. Use --base-url ${upstream.baseUrl}`,
    );
    expect(out.report.requests).toBe(0);
    expect(out.report.checks.flatMap((c) => c.violations)).toEqual([]);
  });

  it("a limiter that refuses everyone with Retry-After 100000: a finding, never a wait beyond the window", async () => {
    const server = await startHostileServer("always-429");
    try {
      const out = await check(server.url, "always-429", { rate: { limit: 60, windowSeconds: 2 } });
      expect(out.code).toBe(1);
      expect(violations(out.report, "rate-limit").map((v) => v.code)).toContain(
        "rate-limit/retry-after-beyond-window",
      );
      expect(out.report.notes.join("\n")).toMatch(/refuses this client/);
      expect(out.seconds).toBeLessThan(20);
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe("one endpoint of a real server sabotaged", () => {
  const behind = async (name: string, mutation: Mutation, subnet: number) => {
    const proxy = await startProxy(upstream.baseUrl, mutation, subnet);
    try {
      return await check(proxy.url, name, upstream.account ? { account: upstream.account } : {});
    } finally {
      await proxy.close();
    }
  };

  it("a hanging endpoint is that endpoint's finding, its rules say why they were not exercised, the rest passes", async () => {
    const out = await behind("hang", hangingEndpoint("/api/v1/search"), 201);
    expect(out.code).toBe(1);
    expect(violations(out.report, "answers-complete").map((v) => [v.code, v.operation])).toEqual([
      ["answers-complete/timeout", "searchAlerts"],
    ]);
    const search = out.report.checks.filter((c) => c.name.startsWith("rule:search-"));
    expect(search.every((c) => c.status === "not-exercised" && /endpoint failed/.test(c.reason ?? ""))).toBe(
      true,
    );
    const failed = out.report.checks.filter((c) => c.status === "fail").map((c) => c.name);
    expect(failed).toEqual(["answers-complete"]);
    expect(out.seconds).toBeLessThan(40 + 10);
  }, 60_000);

  it("dropped connections are findings of answers-complete alone, and the run goes on", async () => {
    const out = await behind("resets", droppedConnections(), 202);
    expect(out.code).toBe(1);
    expect(violations(out.report, "answers-complete").every((v) => v.code === "answers-complete/reset")).toBe(
      true,
    );
    expect(out.report.checks.filter((c) => c.status === "fail").map((c) => c.name)).toEqual([
      "answers-complete",
    ]);
    expect(out.report.requests).toBeGreaterThan(100);
  }, 60_000);

  it("oversized headers are a malformed answer of that endpoint", async () => {
    const out = await behind("headers", oversizedHeaders("/api/v1/shenghuo"), 203);
    expect(violations(out.report, "answers-complete").map((v) => [v.code, v.operation])).toEqual([
      ["answers-complete/malformed", "listActivities"],
    ]);
  }, 60_000);
});
