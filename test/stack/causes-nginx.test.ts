/**
 * Whole runs of the suite whose causes must be exactly the true ones: each stack below has one
 * fault, and the report names it (and what follows from it, under it), with evidence, and no other
 * cause. Behind Debian's nginx: a cache storing 429s, limit_req counting preflights, limit_req
 * refusing with its own 403 pages; and, without nginx, an API ignoring its keys (a planted bug)
 * and a server whose manifest states its own limit of 120. Spread over loopback addresses, each
 * run takes seconds to a minute; nginx reaches the server from an address the suite never uses.
 */
import { afterEach, describe, expect, it } from "vitest";
import { expectExactly } from "../../conformance/planted/matrix.ts";
import { startProxy } from "../../conformance/planted/proxy.ts";
import { KEY_IGNORED, type PlantedBug } from "../../conformance/planted/variants.ts";
import type { RunReport } from "../../conformance/runner/report.ts";
import { runConformance } from "../../conformance/runner/run.ts";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { requireTool } from "../required-tool.ts";
import { nginxAvailable, serverBehindNginx } from "./nginx.ts";

const runnable = requireTool({
  name: "nginx",
  available: nginxAvailable(),
  install: "apt-get install -y nginx",
  needs: "the suite's causes through Debian's nginx",
});

let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** The planted proxies' subnet here: the last one, which the matrix's bugs (1 on) do not reach. */
const SUBNET = 250;

/** A planted bug's proxy in front of a reference server of its own. */
async function planted(bug: PlantedBug): Promise<Target> {
  const server = await startBundledServer();
  const proxy = await startProxy(server.baseUrl, bug.mutation, SUBNET);
  return {
    baseUrl: proxy.url,
    ...(server.account ? { account: server.account } : {}),
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

interface Want {
  /** The causes stated, exactly, in order, each with its followers' ids. */
  causes: Record<string, string[]>;
  /** What the first cause's title, and its or a follower's evidence, must say. */
  title: RegExp;
  evidence: RegExp;
  /** Codes no finding may have (what the cause is not). */
  absent?: string[];
  /** A planted bug: exactly its checks fail (conformance/planted/matrix.ts). */
  bug?: PlantedBug;
}

const CASES: [string, () => Promise<Target>, Want][] = [
  [
    "nginx caching 429s: the cache, clients 'counted together' under it, and the run never paced as one client",
    () => serverBehindNginx("cache-429"),
    {
      causes: { "cache-answered": ["counted-together"] },
      title:
        /^A shared cache in front answers from its storage, replaying other clients' answers with stored 429 refusals \(\d+ seen\) and their RateLimit-\* headers$/,
      evidence: /^429 answer of getMeta: x-cache-status: HIT$/m,
    },
  ],
  [
    "nginx limit_req counting preflights: the limiter in front, the preflights named under it",
    () => serverBehindNginx("limit-req", { rateLimit: false }),
    {
      causes: { "limiter-in-front": ["limiter-counts-preflight"] },
      title:
        /^A limiter in front of the API answers the rate limit, not the API's own: its 429s are text\/html/,
      evidence:
        /request \d+ of 60 within the window was refused: .*the (\d+) preflights \(OPTIONS\) sent before it in the window are counted \(\d+ \+ \1 >= 60\)/,
    },
  ],
  [
    "nginx limit_req refusing with its own 403 pages: one limiter in front, its 403s not served, the preflights named",
    () => serverBehindNginx("limit-req-403"),
    {
      causes: { "limiter-in-front": ["limiter-counts-preflight"] },
      title:
        /: it refuses with its own 403 pages \(text\/html, no CORS, no RateLimit-\*, Server: nginx\), not 429$/,
      evidence: /^\d+ answers 403: text\/html, no CORS, no RateLimit-\*, Server: nginx$/m,
      absent: ["rate-limit/not-enforced", "rate-limit/refills-early"],
    },
  ],
  [
    "an API serving a personal stream to a wrong key (planted key-ignored): the API, not a cache",
    () => planted(KEY_IGNORED),
    {
      bug: KEY_IGNORED,
      causes: { "credentials-ignored": [] },
      title: /^The API itself serves getMyFollowHits and getMyPushHits without checking the key/,
      evidence:
        /its own RateLimit-Remaining \(\d+; the owner's \d+\): the API counted it; no Age, X-Cache or Cache-Status/,
    },
  ],
  [
    "a server run with its own limit of 120, which its manifest states: that limit, not another shape",
    () => startBundledServer({ rateLimit: { limit: 120 } }),
    {
      causes: { "manifest-rate-limit": [] },
      title:
        /^The deployment runs another rate limit than the contract's: the manifest says 120 per 60 s; the contract says 60 per 60 s$/,
      evidence:
        /^\d+ served within \d+ s from one client address: within the manifest's 120, over the contract's 60$/m,
    },
  ],
];

/** Every cause and follower as id → followers, and every evidence line, from the report. */
const stated = (r: RunReport) =>
  Object.fromEntries(r.causes.map((c) => [c.id, (c.follows ?? []).map((f) => f.id)]));
const allCauses = (r: RunReport) => r.causes.flatMap((c) => [c, ...(c.follows ?? [])]);

describe.runIf(runnable)("whole runs: the causes stated are exactly the true ones", () => {
  it.each(CASES)(
    "%s",
    async (_what, start, want) => {
      target = await start();
      const report = await runConformance({
        baseUrl: target.baseUrl,
        seed: 13,
        skipSlow: true,
        ...(target.account ? { account: target.account } : {}),
      });
      const rows = report.checks.flatMap((c) => c.violations);
      const summary = JSON.stringify({
        causes: report.causes,
        rows: rows.map((v) => [v.code, v.cause, v.title]),
      });
      expect(stated(report), summary).toEqual(want.causes);
      expect(report.causes[0]?.title).toMatch(want.title);
      expect(
        allCauses(report)
          .flatMap((c) => c.evidence)
          .join("\n"),
      ).toMatch(want.evidence);
      for (const c of allCauses(report)) {
        expect(c.evidence.length, c.id).toBeGreaterThan(0);
        if (c.likely) expect(c.confirm, c.id).toBeTruthy();
      }
      // Every finding is explained by the cause: nothing is left as a row of its own.
      expect(rows.filter((v) => !v.cause).map((v) => v.title)).toEqual([]);
      expect(rows.map((v) => v.code).filter((code) => want.absent?.includes(code))).toEqual([]);
      if (want.bug) expectExactly(report, want.bug);
      // A cause never drives the run to pace itself as one client (runner/diagnosis.ts).
      expect(report.notes.filter((n) => /counts different client IPs together/.test(n))).toEqual([]);
    },
    150_000,
  );
});
