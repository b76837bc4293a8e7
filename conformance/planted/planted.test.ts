/**
 * The suite proves itself: each planted bug (a mutating proxy in front of the real reference
 * server) makes exactly the intended checks fail. One upstream server serves every variant;
 * each proxy has client IPs of its own upstream, so their rate windows do not mix.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "../../src/spec/load.ts";
import { SPEC_PATH } from "../../src/spec/paths.ts";
import type { RunReport } from "../runner/report.ts";
import { runConformance } from "../runner/run.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { startProxy } from "./proxy.ts";
import { PLANTED, type PlantedBug } from "./variants.ts";

let upstream: Target;
let specWithoutLouzhu: string;

beforeAll(async () => {
  upstream = await startBundledServer();
  const doc = parseDocument(await readFile(SPEC_PATH, "utf8")) as {
    components: { schemas: { Alert: { required: string[] } } };
  };
  doc.components.schemas.Alert.required = doc.components.schemas.Alert.required.filter((f) => f !== "louzhu");
  specWithoutLouzhu = join(await mkdtemp(join(tmpdir(), "dealkit-planted-")), "openapi.json");
  await writeFile(specWithoutLouzhu, JSON.stringify(doc));
});

afterAll(async () => {
  await upstream?.close();
});

/**
 * Two cores are shared: by default a spread of variants runs (one per kind of check);
 * DEALKIT_PLANTED=all runs the whole matrix (each variant is a full run of the suite).
 */
const DEFAULT_SET = new Set([
  "rank-content-at-small-limit",
  "cors-dropped-on-errors",
  "retry-after-missing",
  "server-error-on-long-value",
  "removed-field",
  "limit-clamped-silently",
  "401-bodies-differ",
  // The counting rules of x-rate-limit; refused-counted also runs the Retry-After wait (4 s).
  "preflight-counted",
  "forwarded-for-trusted",
  "rss-not-limited",
  "refused-counted",
  // A limiter that counts every client as one: recognized, reported once, the run goes on.
  "client-ips-hidden",
  // The stack in front: a cache leaking the personal streams, broken compression, a proxy's own
  // error page, a limiter of another shape; each failing its check and named as its cause.
  "cache-ignores-key",
  "compressed-without-vary",
  "compressed-twice",
  "long-url-refused-by-proxy",
  "waf-blocks-pipes",
  "leaky-bucket",
  // A limit diagnosed from RateLimit-Remaining: an endpoint costing two units is not "preflights counted".
  "search-costs-two",
]);
const chosen = PLANTED.map((bug, i) => [bug.name, bug, i] as const).filter(
  ([name]) => process.env.DEALKIT_PLANTED === "all" || DEFAULT_SET.has(name),
);

/** The planted bug fails exactly its intended checks (and, where given, with exactly these codes). */
function expectExactly(report: RunReport, bug: PlantedBug): void {
  const failed = report.checks.filter((c) => c.status === "fail").map((c) => c.name);
  expect(failed, JSON.stringify(report.checks.flatMap((c) => c.violations.map((v) => v.title)))).toEqual(
    bug.expect,
  );
  if (bug.codes) {
    const codes = report.checks.flatMap((c) => c.violations.map((v) => v.code));
    expect([...new Set(codes)].sort()).toEqual([...bug.codes].sort());
  }
  if (bug.causes) expect(report.causes.map((c) => c.id)).toEqual(bug.causes);
}

describe("planted bugs", () => {
  it.each(chosen)(
    "%s fails exactly the intended checks",
    async (_name, bug, i) => {
      const proxy = await startProxy(upstream.baseUrl, bug.mutation, i + 1);
      try {
        const report = await runConformance({
          baseUrl: proxy.url,
          seed: 42,
          skipSlow: !bug.slow,
          randomRuns: 0,
          ...(upstream.account ? { account: upstream.account } : {}),
          ...(bug.specWithoutLouzhu ? { specPath: specWithoutLouzhu } : {}),
          ...(bug.rate ? { rate: bug.rate } : {}),
        });
        expectExactly(report, bug);
        // Whatever the fault, the rate diagnosis speaks at most once per cause.
        expect(report.notes.filter((n) => n.startsWith("rate limit:")).length).toBeLessThanOrEqual(2);
      } finally {
        await proxy.close();
      }
    },
    60_000,
  );
});

/**
 * The field: the same planted bugs caught from one client address, paced (windows shortened to
 * 10 s on both sides), with the data moving (a new alert every second).
 */
describe("planted bugs, from one address", () => {
  let live: Target;
  beforeAll(async () => {
    live = await startBundledServer({ rateLimit: { windowSeconds: 10 }, liveEveryMs: 1000 });
  });
  afterAll(async () => {
    await live?.close();
  });

  it.each(
    [
      "search-ignores-kp",
      "feed-pages",
      "retry-after-missing",
      "refused-counted",
      "forwarded-for-trusted",
    ].map((name, i) => [name, i] as const),
  )(
    "%s fails exactly the intended checks",
    async (name, i) => {
      const bug = PLANTED.find((b) => b.name === name);
      if (!bug) throw new Error(`no planted bug ${name}`);
      const proxy = await startProxy(live.baseUrl, bug.mutation, 230 + i);
      try {
        const report = await runConformance({
          baseUrl: proxy.url,
          seed: 43,
          addresses: 1,
          rate: bug.rate ?? { limit: 60, windowSeconds: 10 },
          ...(live.account ? { account: live.account } : {}),
        });
        expect(report.mode).toBe("one-address");
        expectExactly(report, bug);
        expect(report.requests).toBeLessThanOrEqual(200);
      } finally {
        await proxy.close();
      }
    },
    90_000,
  );
});
