/**
 * The client judge of a long-running observer (dealkit mock, dealkit proxy): exchanges in as they
 * complete, the reports written when asked (on demand, and when the process stops).
 */
import type { Spec } from "../../src/spec/spec.ts";
import { type TrafficBytes, trafficOfBytes } from "../passive/body.ts";
import type { KnownAccount } from "./context.ts";
import { ClientJudge } from "./judge.ts";
import { observationOfTraffic } from "./observation.ts";
import { type ClientReportFile, writeClientReports } from "./report-files.ts";
import { consoleLines } from "./report-text.ts";
import type { ClientsReport } from "./types.ts";

export interface LiveClientJudge {
  judge: ClientJudge;
  /** One exchange of the proxy, its body (kept bytes) decoded only for a refusal's problem type. */
  observeBytes(exchange: TrafficBytes): void;
  /** Writes the report files and prints the verdicts; the report. */
  write(out?: (line: string) => void): Promise<ClientsReport>;
}

export function liveClientJudge(
  spec: Spec,
  files: ClientReportFile[],
  options: { basePath?: string; accounts?: KnownAccount[] } = {},
): LiveClientJudge {
  const judge = new ClientJudge(spec, options.accounts ? { accounts: options.accounts } : {});
  return {
    judge,
    observeBytes(exchange) {
      // Only a refusal's body is read (its problem type): the rest stay bytes, never decoded here.
      const traffic = exchange.status >= 400 ? trafficOfBytes(exchange) : { ...exchange, kept: undefined };
      const o = observationOfTraffic(traffic, judge.rules, options.basePath);
      if (o) judge.observe(o);
    },
    async write(out = (line: string) => console.log(line)) {
      const report = judge.report();
      await writeClientReports(files, report);
      for (const line of consoleLines(report)) out(line);
      return report;
    },
  };
}
