/**
 * The whole suite against the reference server behind one proxy harness (varnish.ts, haproxy.ts,
 * httpd.ts): the server trusts X-Forwarded-For from PROXY_ADDRESS alone, the proxy reaches it from
 * there, and both are stopped once the report is in. Also the views of a report the stack tests
 * compare.
 */
import type { RunReport } from "../../conformance/runner/report.ts";
import { type RunOptions, runConformance } from "../../conformance/runner/run.ts";
import { startBundledServer } from "../../conformance/runner/target.ts";
import { type ForegroundProcess, PROXY_ADDRESS } from "./foreground.ts";

/** Starts a proxy in front of `upstream`; the run needs its URL and its stop (nginx's harness has its own type). */
export type StartProxy = (upstream: string) => Promise<Pick<ForegroundProcess, "url" | "close">>;

/** The reference server with `server` options behind `startProxy`'s proxy: one suite run, then both stopped. */
export async function suiteBehind(
  startProxy: StartProxy,
  server: Record<string, unknown>,
  run: Omit<RunOptions, "baseUrl" | "account">,
): Promise<RunReport> {
  const target = await startBundledServer({ trustedProxies: [PROXY_ADDRESS], ...server });
  try {
    const proxy = await startProxy(target.baseUrl);
    try {
      return await runConformance({
        baseUrl: proxy.url,
        // request-gate's raw requests meet the proxy's own parser, which no config here is about:
        // they are judged behind each proxy in request-gate.test.ts, unless the run asks for them.
        ...(run.only ? {} : { skip: ["request-gate"] }),
        ...run,
        ...(target.account ? { account: target.account } : {}),
      });
    } finally {
      await proxy.close();
    }
  } finally {
    await target.close();
  }
}

/** Memoizes a suite run, so that two describe blocks (true findings, stated causes) share one. */
export function oneRun(run: () => Promise<RunReport>): () => Promise<RunReport> {
  let report: Promise<RunReport> | undefined;
  return () => {
    report ??= run();
    return report;
  };
}

/** A 10 s window keeps the waits short; the suite paces at and judges against it. */
const SHORT_WINDOW = { server: { rateLimit: { windowSeconds: 10 } }, rate: { limit: 60, windowSeconds: 10 } };

/** The suite, spread, on the short window behind `startProxy`: what a recommended pass-through passes. */
export function shortWindowRun(
  startProxy: StartProxy,
  cut: Pick<RunOptions, "randomRuns" | "maxTimeSeconds"> = {},
): Promise<RunReport> {
  return suiteBehind(startProxy, SHORT_WINDOW.server, { seed: 11, rate: SHORT_WINDOW.rate, ...cut });
}

/**
 * shortWindowRun behind a cache that replays 429s, shared by the file's describe blocks. A fresh
 * address refused by a replayed 429 makes the suite pace as one client from then on, and wait on
 * every replayed refusal: the run is cut at 45 s (what the tests assert shows within its first 20),
 * with few random requests.
 */
export function replayingCacheRun(startProxy: StartProxy): () => Promise<RunReport> {
  return oneRun(() => shortWindowRun(startProxy, { randomRuns: 3, maxTimeSeconds: 45 }));
}

/**
 * The suite behind a limiter in front with a window of its own (HAProxy's 60 s, mod_evasive's),
 * shared by the file's describe blocks; skipSlow spares the wait for that window. The API's own
 * limiter stays on behind it, at the contract's 60 per 60 s.
 */
export function limiterInFrontRun(startProxy: StartProxy): () => Promise<RunReport> {
  return oneRun(() => suiteBehind(startProxy, {}, { seed: 11, skipSlow: true }));
}

export const failedChecks = (r: RunReport): string[] =>
  r.checks.filter((c) => c.status === "fail").map((c) => c.name);

export const unexercised = (r: RunReport): string[] =>
  r.checks.filter((c) => c.status === "not-exercised").map((c) => `${c.name}: ${c.reason}`);

/** Every finding as "check code: title", for failure messages. */
export const findings = (r: RunReport): string[] =>
  r.checks.flatMap((c) => c.violations.map((v) => `${c.name} ${v.code}: ${v.title}`));

/** Findings no cause explains: a row of its own beside the causes. */
export const unexplained = (r: RunReport): string[] =>
  r.checks.flatMap((c) => c.violations.filter((v) => !v.cause).map((v) => `${c.name} ${v.code}: ${v.title}`));
