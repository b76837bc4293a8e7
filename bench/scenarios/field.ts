/**
 * The field run: `dealkit conformance` against a target it reaches through one address
 * (`http://localhost:PORT`, so one client IP and the advertised 60 requests a minute), whose data
 * moves while the run goes (the reference server with `--live 5s`), with an account, timed as a
 * CI job sees it. Targets: at most 180 s and 218 requests (200 until the relations of too-little
 * answers and the contract's open points added 16 requests of evidence, 210 until request-gate's
 * 8 raw requests), every check exercised.
 */
import type { BenchContext } from "../context.ts";
import { startChild, urlOf } from "../procs.ts";
import { formatNumber } from "../stats.ts";
import type { Section } from "../types.ts";
import { runSuite, SEED } from "./conformance.ts";

const KEY = "00112233445566778899aabbccddeeff";
const LIVE_EVERY_MS = 5000;

export async function field(ctx: BenchContext): Promise<Section> {
  const base = {
    id: "field",
    title: "Field run: one address, 60 requests a minute, live data",
    method:
      `\`dealkit conformance --base-url http://localhost:PORT --seed ${SEED} --uid … --api-key …\` as a child process against the ` +
      `reference server in another process with live data (a new alert every ${LIVE_EVERY_MS / 1000} s): one source address, so ` +
      "the run paces at the advertised 60 per minute, spends its first window as the 429 burst and waits Retry-After once.",
  };
  if (ctx.args.quick) {
    return {
      ...base,
      tables: [],
      targets: [],
      notes: ["Not run with --quick: the field run is paced at 60 requests a minute (about 2 minutes)."],
      data: {},
    };
  }
  const server = await startChild("bench/servers/reference.ts", {
    dbPath: ":memory:",
    liveEveryMs: LIVE_EVERY_MS,
    demoKey: KEY,
  });
  const port = new URL(urlOf(server)).port;
  const run = await runSuite(ctx, "field", [
    "--base-url",
    `http://localhost:${port}`,
    "--uid",
    "10001",
    "--api-key",
    KEY,
  ]);
  await server.stop();
  const report = run.report;
  const unexercised = report?.checks.filter((c) => c.status === "not-exercised") ?? [];
  const failed = report?.checks.filter((c) => c.status === "fail") ?? [];
  const requests = report?.requests ?? Number.NaN;
  return {
    ...base,
    tables: [
      {
        columns: ["exit", "wall s", "requests", "checks passed", "failed", "not exercised", "unexpected 429"],
        rows: [
          [
            String(run.exitCode),
            formatNumber(run.wallSeconds),
            formatNumber(requests),
            formatNumber(report?.checks.filter((c) => c.status === "pass").length ?? Number.NaN),
            formatNumber(failed.length),
            formatNumber(unexercised.length),
            formatNumber(report?.unexpected429 ?? Number.NaN),
          ],
        ],
      },
    ],
    targets: [
      {
        name: "field run against a one-address 60/min target in ≤ 180 s",
        met: report ? run.wallSeconds <= 180 : null,
        measured: `${formatNumber(run.wallSeconds)} s`,
        value: run.wallSeconds,
        unit: " s",
      },
      {
        name: "field run in ≤ 218 requests",
        met: report ? requests <= 218 : null,
        measured: `${formatNumber(requests)} requests`,
        value: requests,
        unit: " requests",
      },
      {
        name: "field run: every check exercised and passing (live data, with an account)",
        met: report ? unexercised.length === 0 && failed.length === 0 : null,
        measured: `${failed.length} failed, ${unexercised.length} not exercised`,
      },
    ],
    notes: [
      ...unexercised.map((c) => `not exercised: ${c.name}: ${c.reason}`),
      ...failed.map((c) => `failed: ${c.name}: ${c.violations[0]?.title}`),
    ],
    data: {
      exitCode: run.exitCode,
      wallSeconds: run.wallSeconds,
      requests,
      durationMs: report?.durationMs,
      notes: report?.notes,
      // [ms from the start, status, phase] per request: the chart of results.md (charts.ts).
      timeline: report?.timeline?.map((p) => [p.at, p.status, p.phase]),
    },
  };
}
