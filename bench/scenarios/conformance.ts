import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunReport } from "../../conformance/runner/report.ts";
import type { BenchContext } from "../context.ts";
import { REPO } from "../procs.ts";
import { formatNumber } from "../stats.ts";
import type { Section, Table } from "../types.ts";

export const SEED = 20_261_125;

export interface Timed {
  mode: string;
  exitCode: number | null;
  wallSeconds: number;
  report?: RunReport;
}

/** `dealkit conformance` as a user runs it (a child process, bundled server in it), timed from spawn to exit. */
export async function runSuite(ctx: BenchContext, mode: string, extra: string[]): Promise<Timed> {
  const reportPath = join(ctx.tmp, `conformance-${mode}.json`);
  const args = [
    "bin/dealkit.js",
    "conformance",
    "--seed",
    String(SEED),
    "--report",
    `json=${reportPath}`,
    ...extra,
  ];
  const started = performance.now();
  const exitCode = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: "ignore" });
    child.once("exit", (code) => resolve(code));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  let report: RunReport | undefined;
  try {
    report = JSON.parse(readFileSync(reportPath, "utf8")) as RunReport;
  } catch {
    report = undefined;
  }
  ctx.log(
    `  conformance ${mode}: exit ${exitCode}, ${wallSeconds.toFixed(1)} s, ${report?.requests ?? "?"} requests`,
  );
  return { mode, exitCode, wallSeconds, report };
}

const cases = (r?: RunReport) => r?.checks.reduce((n, c) => n + c.cases, 0) ?? Number.NaN;

export async function conformance(ctx: BenchContext): Promise<Section> {
  const runs = [await runSuite(ctx, "--skip-slow", ["--skip-slow"])];
  if (ctx.args.slowConformance) runs.push(await runSuite(ctx, "full", []));
  const fast = runs[0]?.report;
  const perCheck: Table = {
    caption: `Per check (the --skip-slow run): answers judged, and those that could have shown a violation (evidence)`,
    columns: ["check", "status", "cases", "evidence"],
    rows: (fast?.checks ?? [])
      .filter((c) => c.status !== "skipped")
      .map((c) => [c.name, c.status, c.cases, c.informative]),
  };
  return {
    id: "conformance",
    title: "Conformance suite against the bundled reference server",
    method:
      `\`dealkit conformance --seed ${SEED}\` as a child process (it starts the bundled server in process on :memory: data), ` +
      "timed from spawn to exit: Node and tsx start-up, data generation, discovery, exploration paced under the advertised " +
      "60/min per source address (spread over loopback addresses), the 429 burst. One run per mode (the run is paced, so it is not CPU-bound).",
    tables: [
      {
        columns: [
          "mode",
          "exit",
          "wall s",
          "suite s (report)",
          "requests",
          "checks",
          "cases",
          "cases / s",
          "requests / check",
        ],
        rows: runs.map((r) => {
          const checks = r.report?.checks.filter((c) => c.status !== "skipped").length ?? Number.NaN;
          return [
            r.mode,
            String(r.exitCode),
            formatNumber(r.wallSeconds),
            formatNumber((r.report?.durationMs ?? Number.NaN) / 1000),
            formatNumber(r.report?.requests ?? Number.NaN),
            formatNumber(checks),
            formatNumber(cases(r.report)),
            formatNumber(cases(r.report) / r.wallSeconds),
            formatNumber((r.report?.requests ?? Number.NaN) / checks),
          ];
        }),
      },
      perCheck,
    ],
    targets: [],
    notes: [
      ...(ctx.args.slowConformance
        ? []
        : [
            "The run without --skip-slow (which waits out Retry-After windows) runs only with --slow-conformance: it does not fit the 10-minute budget.",
          ]),
      ...runs
        .filter((r) => r.exitCode !== 0)
        .map((r) => `The ${r.mode} run exited ${r.exitCode}: the suite reported a failure.`),
    ],
    data: runs.map((r) => ({
      mode: r.mode,
      exitCode: r.exitCode,
      wallSeconds: r.wallSeconds,
      durationMs: r.report?.durationMs,
      requests: r.report?.requests,
      checks: r.report?.checks.map(({ name, status, cases, informative }) => ({
        name,
        status,
        cases,
        informative,
      })),
    })),
  };
}
