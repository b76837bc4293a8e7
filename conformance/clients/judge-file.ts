/**
 * `dealkit judge --clients FILE`: recorded traffic (a HAR from a browser session, the kit's NDJSON
 * of exchanges) judged as the mock and the proxy judge their clients live. Exit 0 when no client
 * has a finding, 1 when one has; a file that holds no exchange is an input error (exit 2).
 */
import { loadSpec } from "../../src/spec/load.ts";
import { HarError } from "../passive/har.ts";
import { trafficOf } from "../passive/main.ts";
import { ClientJudge } from "./judge.ts";
import { observationOfTraffic } from "./observation.ts";
import { type ClientReportFile, writeClientReports } from "./report-files.ts";
import { consoleLines } from "./report-text.ts";
import type { ClientsReport } from "./types.ts";

export interface JudgeClientsCli {
  file: string;
  specPath?: string;
  /** The API's address in the recording: only its requests are judged, its path prefix stripped. */
  baseUrl?: string;
  reports: ClientReportFile[];
  out?: (line: string) => void;
}

export async function judgeClientsCommand(
  cli: JudgeClientsCli,
): Promise<{ code: number; report: ClientsReport }> {
  const out = cli.out ?? ((line: string) => console.log(line));
  const judge = new ClientJudge(await loadSpec(cli.specPath));
  const base = cli.baseUrl ? new URL(cli.baseUrl) : undefined;
  let read = 0;
  for await (const traffic of trafficOf(cli.file)) {
    read++;
    if (base && originOf(traffic.url) !== base.origin) continue;
    const o = observationOfTraffic(traffic, judge.rules, base?.pathname);
    if (o) judge.observe(o);
  }
  if (read === 0) throw new HarError(`${cli.file}: it holds no exchange: nothing to judge`);
  const report = judge.report();
  // Nothing of the API's is nothing judged: not a pass (the file or --base-url is not what was meant).
  if (report.clients.length === 0)
    throw new HarError(
      `${cli.file}: no exchange${base ? ` with ${base.href}` : ""} was the API's: nothing to judge`,
    );
  for (const line of consoleLines(report)) out(line);
  await writeClientReports(cli.reports, report);
  return { code: report.verdict === "failed" ? 1 : 0, report };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
