/**
 * `dealkit proxy`'s options as given on the command line, read into a ProxyCli by the forwarding
 * thread (threaded-proxy.ts). Reading them needs the report formats, whose module loads the whole
 * suite: read in the CLI's own thread, that cost the proxy ~36 MB of RSS in a thread that only
 * waits for a signal.
 */
import { clientsReportOption } from "../clients/report-files.ts";
import type { ProxyCli } from "./main.ts";
import { listOption, rateOption, reportsOption } from "./options.ts";

export interface ProxyArgs {
  upstream: string;
  port: number;
  host?: string;
  errors?: boolean;
  forwardedFor?: boolean;
  /** `--report F=PATH`, each as given. */
  report?: string[];
  record?: string;
  recordHar?: string;
  /** `--rate N/MIN` as given. */
  rate?: string;
  /** `--only` and `--skip`, comma-separated as given. */
  only?: string;
  skip?: string;
  spec?: string;
  ledger?: string;
  /** `--clients-report F=PATH`, each as given. */
  clientsReport?: string[];
}

/** The options read; a wrong one is an OptionError. */
export function proxyCliOf(args: ProxyArgs): Omit<ProxyCli, "out"> {
  const reports = reportsOption(args.report ?? []);
  const only = listOption(args.only);
  const skip = listOption(args.skip);
  return {
    upstream: args.upstream,
    port: args.port,
    ...(args.host ? { host: args.host } : {}),
    errors: args.errors ?? false,
    forwardedFor: args.forwardedFor ?? false,
    reports: reports.files,
    ...(reports.ndjson ? { findingsLog: reports.ndjson } : {}),
    ...(args.record ? { record: args.record } : {}),
    ...(args.recordHar ? { recordHar: args.recordHar } : {}),
    ...(args.rate !== undefined ? { rate: rateOption(args.rate) } : {}),
    ...(only ? { only } : {}),
    ...(skip ? { skip } : {}),
    ...(args.spec ? { specPath: args.spec } : {}),
    ...(args.ledger ? { ledger: args.ledger } : {}),
    ...(args.clientsReport?.length ? { clientsReports: clientsReportOption(args.clientsReport) } : {}),
  };
}
