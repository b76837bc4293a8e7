import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { dirname } from "node:path";
import type { Account } from "./arbitraries/requests.ts";
import { openRunLedger } from "./ledger/hook.ts";
import { exchangeLine, trafficOfExchange } from "./passive/ndjson.ts";
import { openRecording } from "./passive/recording.ts";
import { formatConsole } from "./reporters/console.ts";
import { formatHtml } from "./reporters/html.ts";
import { formatJson } from "./reporters/json.ts";
import { formatJunit } from "./reporters/junit.ts";
import { LiveLine, type Terminal } from "./reporters/live-line.ts";
import { formatMarkdown } from "./reporters/markdown.ts";
import { formatPlan } from "./runner/plan-format.ts";
import { progressLine } from "./runner/progress.ts";
import { type RunReport, verdictCode } from "./runner/report.ts";
import { type RunOptions, run, validateSelection } from "./runner/run.ts";
import { startBundledServer, type Target } from "./runner/target.ts";
import type { Exchange } from "./types.ts";

/** Report files a run can write (`--report FORMAT=PATH`). */
export const FORMATS = { junit: formatJunit, json: formatJson, markdown: formatMarkdown, html: formatHtml };
export type ReportFormat = keyof typeof FORMATS;

export interface CliRun extends Omit<RunOptions, "baseUrl" | "log" | "replayTarget" | "onExchange"> {
  /** Stops the run (the CLI aborts it on SIGINT and SIGTERM, with the signal's name as the reason). */
  signal?: AbortSignal;
  baseUrl?: string;
  reports: { format: ReportFormat; path: string }[];
  /** `--record PATH`: every exchange, one a line, as it comes (what `dealkit judge` reads). */
  exchangeLog?: string;
  /** `--ledger FILE`: the run is merged into it and judged against the runs before (conformance/ledger/). */
  ledger?: string;
  out?: (line: string) => void;
  /**
   * Where the live progress line goes when it is a TTY (default: process.stdout when `out` is not
   * given); otherwise the run logs plain lines.
   */
  terminal?: Terminal;
  /** `--allow-incomplete`: an incomplete run exits 0 (its verdict still says incomplete). */
  allowIncomplete?: boolean;
}

/** The NDJSON of exchanges, written as they come; undefined when none was asked for. */
async function openExchangeLog(path: string | undefined) {
  if (!path) return undefined;
  const out = await openRecording(path);
  return { write: (e: Exchange) => out.write(exchangeLine(trafficOfExchange(e))), close: () => out.close() };
}

/** Writes the report files (a failure to write one is said, and the others are still written). */
export async function writeReports(
  files: { format: ReportFormat; path: string }[],
  report: RunReport,
  out: (line: string) => void,
  command = "conformance",
): Promise<void> {
  for (const r of files) {
    try {
      await mkdir(dirname(r.path), { recursive: true });
      await writeFile(r.path, FORMATS[r.format](report));
      out(`wrote ${r.format} report to ${r.path}`);
    } catch (err) {
      console.error(`dealkit ${command}: could not write ${r.path}: ${(err as Error).message}`);
    }
  }
}

/** The shell's exit code for a run stopped by a signal: 128 + its number (130 SIGINT, 143 SIGTERM). */
function stoppedCode(signal: AbortSignal | undefined): number {
  const name = String(signal?.reason ?? "");
  const number = (os.constants.signals as Record<string, number>)[name];
  return 128 + (number ?? os.constants.signals.SIGTERM);
}

/**
 * Runs and reports; returns the exit code (0 pass, 1 fail, 2 the run could not judge the target,
 * 128 + the signal's number when `signal` stopped it: the reports are written all the same).
 */
export async function conformanceCommand(cli: CliRun): Promise<{ code: number; report?: RunReport }> {
  const terminal = cli.terminal ?? (cli.out ? undefined : process.stdout);
  const live = terminal?.isTTY && !cli.planOnly ? new LiveLine(terminal) : undefined;
  const print = cli.out ?? ((line: string) => console.log(line));
  const out = live ? (line: string) => live.print(line) : print;
  const started = Date.now();
  const log = (line: string) => out(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);
  await validateSelection(cli);
  // Read before anything starts: a file that is not a ledger is a usage error.
  const ledger = cli.ledger && !cli.planOnly ? await openRunLedger(cli.ledger, cli.specPath) : undefined;
  let target: Target;
  if (cli.baseUrl) {
    target = { baseUrl: cli.baseUrl, close: async () => {} };
  } else {
    log("starting the bundled reference server (in process, :memory: data)");
    target = await startBundledServer();
  }
  const account: Account | undefined = cli.account ?? target.account;
  out(`dealkit conformance: ${target.baseUrl}, seed ${cli.seed}`);
  const exchangeLog = await openExchangeLog(cli.exchangeLog);
  const onExchange =
    exchangeLog || ledger
      ? (e: Exchange) => {
          exchangeLog?.write(e);
          ledger?.observe(e);
        }
      : undefined;
  try {
    const result = await run({
      ...cli,
      baseUrl: target.baseUrl,
      ...(account ? { account } : {}),
      log,
      replayTarget: cli.baseUrl ? `--base-url ${cli.baseUrl} ` : "",
      ...(onExchange ? { onExchange } : {}),
      ...(live ? { progress: (state) => live.update(progressLine(state)) } : {}),
    });
    live?.clear();
    // A run that could not judge the target (not this API, unreachable) teaches the ledger nothing.
    const report =
      ledger && !result.report.error
        ? (
            await ledger.finish(result.report, cli.baseUrl ?? target.baseUrl, {
              entries: cli.known ?? [],
              today: cli.today ?? new Date().toISOString().slice(0, 10),
            })
          ).report
        : result.report;
    if (cli.planOnly && result.plan) {
      out(formatPlan(result.plan, target.baseUrl, result.discovered));
      return { code: 0, report };
    }
    out(formatConsole(report));
    await writeReports(cli.reports, report, out);
    if (report.error) console.error(`dealkit conformance: ${report.error}`);
    if (report.stopped) return { code: stoppedCode(cli.signal), report };
    return { code: verdictCode(report.verdict, cli.allowIncomplete), report };
  } catch (err) {
    live?.clear();
    // A fault of the suite itself: still one line, still the report files, still exit 2.
    const message = `internal error: ${(err as Error).message}`;
    console.error(
      `dealkit conformance: ${message}${process.env.DEALKIT_DEBUG ? `\n${(err as Error).stack}` : " (DEALKIT_DEBUG=1 shows the stack)"}`,
    );
    const report: RunReport = {
      seed: cli.seed,
      baseUrl: target.baseUrl,
      mode: "none",
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      requests: 0,
      unexpected429: 0,
      checks: [],
      causes: [],
      notes: [],
      requireEvidence: cli.requireEvidence ?? false,
      error: message,
      verdict: "not-judged",
      passed: false,
    };
    await writeReports(cli.reports, report, out);
    return { code: 2, report };
  } finally {
    if (exchangeLog) {
      await exchangeLog.close();
      out(`wrote ndjson exchanges to ${cli.exchangeLog}`);
    }
    await target.close();
  }
}
