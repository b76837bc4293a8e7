/**
 * `--ledger FILE` for a run of the suite (every exchange it sent, and one probe of the next
 * version's meta) and for the passive commands (the traffic they saw, nothing sent): record,
 * merge the run into the file, and add the ledger's judgements to the report.
 */
import { loadSpec } from "../../src/spec/load.ts";
import { readTraffic, type Traffic } from "../passive/traffic.ts";
import type { RunReport } from "../runner/report.ts";
import type { Exchange } from "../types.ts";
import { LedgerError } from "./file.ts";
import type { LedgerJudgement } from "./judge.ts";
import { type KnownLedgerFindings, withLedger } from "./report.ts";
import { type LedgerOptions, LedgerSession } from "./session.ts";

export interface RunLedger {
  observe(exchange: Exchange): void;
  /** Traffic seen passing (proxy, judge): the API's answers, and any version's meta. */
  observeTraffic(traffic: Traffic, basePath?: string): void;
  /**
   * Probes (when a base URL is given), writes the file, and returns the report with the judgements
   * (those `known` accepts marked so).
   */
  finish(
    report: RunReport,
    baseUrl?: string,
    known?: KnownLedgerFindings,
  ): Promise<{ report: RunReport; judgements: LedgerJudgement[] }>;
}

/** The body of traffic as JSON, when it is. */
function jsonBody(traffic: Traffic): unknown {
  try {
    return traffic.body === undefined ? undefined : JSON.parse(traffic.body);
  } catch {
    return undefined;
  }
}

export async function openRunLedger(
  path: string,
  specPath?: string,
  options: LedgerOptions = {},
): Promise<RunLedger> {
  const spec = await loadSpec(specPath);
  const session = await LedgerSession.open(path, spec, options);
  // Any version's meta below the base path: `/api/v1` → /api/v<n>/meta.
  const versioned = spec.versioning.path_prefix.replace(/[0-9]+$/, "");
  return {
    observe: (exchange) => session.observe(exchange),
    observeTraffic: (traffic, basePath = "") => {
      const read = readTraffic(spec, traffic, basePath);
      if ("exchange" in read) {
        session.observe(read.exchange);
        return;
      }
      let pathname: string;
      try {
        pathname = new URL(traffic.url).pathname.slice(basePath.replace(/\/+$/, "").length);
      } catch {
        return;
      }
      const m = /^(.*\/v[0-9]+)\/meta$/.exec(pathname);
      if (!m?.[1]?.startsWith(versioned) || traffic.method !== "GET") return;
      session.version(m[1], {
        status: traffic.status,
        headers: traffic.responseHeaders,
        body: jsonBody(traffic),
        url: traffic.url,
        ...(traffic.failure ? { failure: traffic.failure } : {}),
      });
    },
    finish: async (report, baseUrl, known) => {
      if (baseUrl) await session.probe(baseUrl);
      try {
        const { ledger, judgements } = await session.close();
        return { report: withLedger(report, judgements, ledger, path, known), judgements };
      } catch (err) {
        // The run's own verdict stands; the ledger missed this run, and the report says so.
        if (!(err instanceof LedgerError)) throw err;
        console.error(`dealkit: the ledger was not updated: ${err.message}`);
        return {
          report: { ...report, notes: [...report.notes, `ledger ${path} not updated: ${err.message}`] },
          judgements: [],
        };
      }
    },
  };
}
