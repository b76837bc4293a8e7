/**
 * The passive commands behind the CLI: `dealkit proxy` (judge live traffic through a forwarding
 * proxy) and `dealkit judge` (judge recorded traffic: HAR, or the kit's NDJSON of exchanges).
 * Both stream findings as they come and write the suite's reports at the end, in every case.
 */
import { open } from "node:fs/promises";
import { oneLine } from "../../src/errors/one-line.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { liveClientJudge } from "../clients/live.ts";
import type { ClientReportFile } from "../clients/report-files.ts";
import { openRunLedger, type RunLedger } from "../ledger/hook.ts";
import { type ReportFormat, writeReports } from "../main.ts";
import { formatConsole } from "../reporters/console.ts";
import type { RunReport } from "../runner/report.ts";
import { HarError, readHar } from "./har.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { inlineJudging, type Judging, verdictOf, workerJudging } from "./judging.ts";
import { consoleSink, exchangesSink, findingsSink, harSink, type Sink } from "./live.ts";
import { readNdjson } from "./ndjson.ts";
import { startPassiveProxy } from "./proxy.ts";
import type { Traffic } from "./traffic.ts";

export interface PassiveCli {
  reports: { format: ReportFormat; path: string }[];
  /** NDJSON of findings, every one, as they come. */
  findingsLog?: string;
  only?: string[];
  skip?: string[];
  specPath?: string;
  /** The deployment's limit when it was configured with another than the spec's (--rate). */
  rate?: { limit: number; windowSeconds: number };
  /** `--ledger FILE`: the traffic seen is merged into it and judged against the runs before. */
  ledger?: string;
  out?: (line: string) => void;
}

/** The ledger of a passive run, as one more sink (it sends nothing: no version probe). */
async function ledgerOf(cli: PassiveCli, basePath: string | undefined) {
  if (!cli.ledger) return undefined;
  // Dated by the traffic, not by the clock: a recording judged today records the days it was made.
  let seenAt: number | undefined;
  const ledger = await openRunLedger(cli.ledger, cli.specPath, { now: () => seenAt ?? Date.now() });
  const sink: Sink = {
    exchange: (traffic) => {
      if (traffic.receivedAt > 0) seenAt = traffic.receivedAt * 1000;
      ledger.observeTraffic(traffic, basePath);
    },
    close: async () => {},
  };
  return { ledger, sink };
}

async function sinks(cli: PassiveCli, out: (line: string) => void, extra: Promise<Sink>[] = []) {
  return Promise.all([
    Promise.resolve(consoleSink(out)),
    ...(cli.findingsLog ? [findingsSink(cli.findingsLog)] : []),
    ...extra,
  ]);
}

/** Ends a passive run: the report on the console and in its files; exit 0 (pass) or 1 (a check failed). */
async function finish(
  cli: PassiveCli,
  judging: Judging,
  all: Sink[],
  out: (line: string) => void,
  command: "proxy" | "judge",
  ledger?: RunLedger,
): Promise<{ code: number; report: RunReport }> {
  // Verdicts come in order: once the report is in, every exchange before it reached the sinks.
  // A judge that failed still closes the files, and the run says so (exit 2), as the suite does.
  const judged = await judging.report().catch((err: unknown) => failedReport(cli, err));
  await judging.close();
  await Promise.all(all.map((s) => s.close()));
  const report = ledger && !judged.error ? (await ledger.finish(judged)).report : judged;
  out(formatConsole(report));
  await writeReports(cli.reports, report, out, command);
  return { code: report.error ? 2 : report.passed ? 0 : 1, report };
}

/** The report of a run whose judge failed: nothing judged can be claimed, the error is said. */
function failedReport(cli: PassiveCli, err: unknown): RunReport {
  const error = `internal error: the judge failed: ${oneLine(err)}`;
  console.error(`dealkit: ${error}`);
  return {
    seed: 0,
    baseUrl: "baseUrl" in cli ? String(cli.baseUrl ?? "") : "",
    mode: "passive",
    startedAt: new Date().toISOString(),
    durationMs: 0,
    requests: 0,
    unexpected429: 0,
    checks: [],
    causes: [],
    notes: [],
    requireEvidence: false,
    error,
    verdict: "not-judged",
    passed: false,
  };
}

export interface ProxyCli extends PassiveCli {
  upstream: string;
  host?: string;
  port?: number;
  errors?: boolean;
  forwardedFor?: boolean;
  /** NDJSON of exchanges (`dealkit judge` reads it back). */
  record?: string;
  recordHar?: string;
  /** Judge in the proxy's own thread instead of a worker (tests). */
  inline?: boolean;
  /** `--clients-report F=PATH`: the proxy's clients judged too (x-client-rules), written on stop. */
  clientsReports?: ClientReportFile[];
}

export interface ProxyRun {
  url: string;
  /** Stops the proxy (exchanges in flight finish), writes the reports; the exit code. */
  stop(): Promise<{ code: number; report: RunReport }>;
  /** Writes the clients report now (--clients-report), the proxy going on. */
  writeClients?(): Promise<void>;
}

export async function proxyCommand(cli: ProxyCli): Promise<ProxyRun> {
  const out = cli.out ?? ((line: string) => console.log(line));
  const target = { target: cli.upstream, baseUrl: cli.upstream, basePath: new URL(cli.upstream).pathname };
  const setupOptions = {
    ...(cli.specPath ? { specPath: cli.specPath } : {}),
    ...(cli.only ? { only: cli.only } : {}),
    ...(cli.skip ? { skip: cli.skip } : {}),
    ...(cli.rate ? { rate: cli.rate } : {}),
  };
  // The judge first: a wrong --only is a usage error (OptionError) before a file or a port exists.
  // The worker alone reads the spec and the checks: the proxy's own thread only forwards (and,
  // with --ledger, records field paths into the ledger).
  const judging = cli.inline
    ? inlineJudging(new TrafficJudge(await passiveSetup(cli), target))
    : await workerJudging({ setup: setupOptions, judge: target });
  // Then the files: one that cannot be written stops the start before a port exists.
  const opened = async () => {
    const ledger = await ledgerOf(cli, target.basePath);
    const all = await sinks(cli, out, [
      ...(cli.record ? [exchangesSink(cli.record)] : []),
      ...(cli.recordHar ? [harSink(cli.recordHar)] : []),
      ...(ledger ? [Promise.resolve(ledger.sink)] : []),
    ]);
    return { ledger, all };
  };
  const { ledger, all } = await opened().catch(async (err: unknown) => {
    await judging.close();
    throw err;
  });
  // Only asked for: the client judge reads the spec in this thread, which otherwise only forwards.
  const clients = cli.clientsReports?.length
    ? liveClientJudge(await loadSpec(cli.specPath), cli.clientsReports, { basePath: target.basePath })
    : undefined;
  const proxy = await startPassiveProxy({
    upstream: cli.upstream,
    ...(cli.host ? { host: cli.host } : {}),
    port: cli.port ?? 4020,
    errors: cli.errors ?? false,
    forwardedFor: cli.forwardedFor ?? false,
    judging,
    // Only a recording or the ledger needs the bodies as text in this thread.
    ...(all.some((s) => s.exchange)
      ? {
          onExchange: (traffic: Traffic) => {
            for (const s of all) s.exchange?.(traffic);
          },
        }
      : {}),
    onObserved: (verdict) => {
      for (const s of all) s.verdict?.(verdict);
    },
    ...(clients ? { onClientExchange: clients.observeBytes } : {}),
  }).catch(async (err: unknown) => {
    await judging.close();
    await Promise.all(all.map((s) => s.close()));
    throw err;
  });
  out(
    `dealkit proxy: ${proxy.url} → ${cli.upstream}${cli.errors ? " (--errors: a violating answer becomes a 502)" : ""}; Ctrl-C ends it and writes the reports`,
  );
  return {
    url: proxy.url,
    ...(clients ? { writeClients: async () => void (await clients.write(out)) } : {}),
    stop: async () => {
      await proxy.close();
      await clients?.write(out);
      return finish(cli, judging, all, out, "proxy", ledger?.ledger);
    },
  };
}

export interface JudgeCli extends PassiveCli {
  file: string;
  /** The API's base URL in the recording (a HAR holds a whole page's requests); path prefix stripped. */
  baseUrl?: string;
}

/** HAR when the file is one JSON document with `log`, the kit's NDJSON otherwise. */
export async function* trafficOf(file: string): AsyncGenerator<Traffic> {
  const handle = await open(file);
  const head = Buffer.alloc(256);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const start = head
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  // NDJSON lines each start with {"kind": ...}; anything else that is one JSON document is read as
  // a HAR, whose reader says what is wrong with it (a HAR need not begin with "log").
  if (/^\{\s*"kind"/.test(start)) yield* readNdjson(file);
  else yield* await readHar(file);
}

/** Judges a recording; exit 0 (pass) or 1 (a check failed); unreadable files throw. */
export async function judgeCommand(cli: JudgeCli): Promise<{ code: number; report: RunReport }> {
  const out = cli.out ?? ((line: string) => console.log(line));
  const setup = await passiveSetup(cli);
  const base = cli.baseUrl ? new URL(cli.baseUrl) : undefined;
  const judge = new TrafficJudge(setup, {
    target: cli.file,
    ...(base ? { baseUrl: cli.baseUrl, basePath: base.pathname } : {}),
  });
  const ledger = await ledgerOf(cli, base?.pathname);
  const all = await sinks(cli, out, ledger ? [Promise.resolve(ledger.sink)] : []);
  const origin = (url: string) => {
    try {
      return new URL(url).origin;
    } catch {
      return undefined;
    }
  };
  let read = 0;
  for await (const traffic of trafficOf(cli.file)) {
    read++;
    if (base && origin(traffic.url) !== base.origin) {
      judge.skip("another origin than --base-url");
      continue;
    }
    for (const s of all) s.exchange?.(traffic);
    const verdict = verdictOf(judge.observe(traffic));
    for (const s of all) s.verdict?.(verdict);
  }
  // Nothing read is nothing judged: not a pass.
  if (read === 0) throw new HarError(`${cli.file}: it holds no exchange: nothing to judge`);
  return finish(cli, inlineJudging(judge), all, out, "judge", ledger?.ledger);
}
