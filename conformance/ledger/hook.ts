/**
 * `--ledger FILE` for a run of the suite: record every exchange, probe the next version's meta
 * once, merge the run into the file, and add the ledger's judgements to the report.
 */
import { loadSpec } from "../../src/spec/load.ts";
import type { RunReport } from "../runner/report.ts";
import type { Exchange } from "../types.ts";
import type { LedgerJudgement } from "./judge.ts";
import { withLedger } from "./report.ts";
import { type LedgerOptions, LedgerSession } from "./session.ts";

export interface RunLedger {
  observe(exchange: Exchange): void;
  /** Probes (when a base URL is given), writes the file, and returns the report with the judgements. */
  finish(report: RunReport, baseUrl?: string): Promise<{ report: RunReport; judgements: LedgerJudgement[] }>;
}

export async function openRunLedger(
  path: string,
  specPath?: string,
  options: LedgerOptions = {},
): Promise<RunLedger> {
  const session = await LedgerSession.open(path, await loadSpec(specPath), options);
  return {
    observe: (exchange) => session.observe(exchange),
    finish: async (report, baseUrl) => {
      if (baseUrl) await session.probe(baseUrl);
      const { ledger, judgements } = await session.close();
      return { report: withLedger(report, judgements, ledger, path), judgements };
    },
  };
}
