import { stat } from "node:fs/promises";
import { judgeClientsCommand } from "../../conformance/clients/judge-file.ts";
import { clientsReportOption } from "../../conformance/clients/report-files.ts";
import { LedgerError } from "../../conformance/ledger/file.ts";
import { judgeCommand } from "../../conformance/passive/main.ts";
import { listOption, OptionError, rateOption, reportsOption } from "../../conformance/passive/options.ts";
import { UnknownCheckError } from "../../conformance/registry.ts";
import { InputError } from "../../src/errors/input-error.ts";
import { parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit judge FILE [--base-url URL] [--report FORMAT=PATH ...] [--rate N/MIN]
                    [--only CHECK,...] [--skip CHECK,...] [--ledger FILE]
       dealkit judge --clients FILE [--base-url URL] [--clients-report FORMAT=PATH ...]

Judges recorded traffic offline, as dealkit proxy judges it live: every exchange with every check
and rule that applies to one answer, and the cross-answer rules when one client's traffic gives
both sides. FILE is a HAR (browser devtools: Network, "Save all as HAR"; proxies; dealkit proxy
--record-har) or the kit's NDJSON of exchanges (dealkit conformance --record PATH, dealkit
proxy --record PATH). Requests to paths no operation serves are not judged (a page's images and
scripts). Exit 0 when no check failed, 1 when one did, 2 for a usage error or a file that is not
what it claims (a HAR without log.entries, an NDJSON line that is not an exchange, a --spec that is
not an OpenAPI 3.1.x document), named with the reason.
  --base-url URL      judge only requests to this origin, below this path prefix (the API's
                      address in the recording); the replay lines name it
  --report F=PATH     junit, json, markdown, html; ndjson: every finding, one a line; repeatable
  --rate N/MIN        the deployment's limit, when it was configured with another than the spec's
  --only/--skip       check names as for dealkit conformance
  --ledger FILE       merge what was seen into a ledger kept between runs, and judge it against
                      the runs before (as dealkit conformance --ledger; dated by the traffic)
  --clients           judge the clients in the recording instead of the API (x-client-rules:
                      Retry-After waits, 429 storms, refused and repeated requests, where keys
                      travel, what each did after a varied answer), per source address (a browser's
                      HAR is one client); exit 0 when no client has a finding, 1 when one has, 2 for
                      a usage error or a file that is not what it claims
  --clients-report F=PATH  with --clients: json, markdown, html, junit; repeatable`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    "base-url": { type: "string" },
    report: { type: "string", multiple: true },
    rate: { type: "string" },
    only: { type: "string" },
    skip: { type: "string" },
    spec: { type: "string" },
    ledger: { type: "string" },
    clients: { type: "boolean" },
    "clients-report": { type: "string", multiple: true },
  });
  const [file, ...rest] = positionals;
  if (!file) throw new UsageError("FILE is required (a HAR file or the NDJSON of exchanges)");
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
  const baseUrl = values["base-url"];
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, got ${baseUrl}`);
  if (!(await stat(file).catch(() => undefined))?.isFile()) {
    console.error(`dealkit judge: ${file} is not a readable file`);
    return 2;
  }
  if (values.clients) return judgeClients(file, values);
  if (values["clients-report"]) throw new UsageError("--clients-report goes with --clients");
  try {
    const reports = reportsOption(values.report ?? []);
    const only = listOption(values.only);
    const skip = listOption(values.skip);
    const { code } = await judgeCommand({
      file,
      reports: reports.files,
      ...(reports.ndjson ? { findingsLog: reports.ndjson } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      ...(values.rate !== undefined ? { rate: rateOption(values.rate) } : {}),
      ...(only ? { only } : {}),
      ...(skip ? { skip } : {}),
      ...(values.spec ? { specPath: values.spec } : {}),
      ...(values.ledger ? { ledger: values.ledger } : {}),
    });
    return code;
  } catch (err) {
    if (err instanceof UnknownCheckError || err instanceof OptionError || err instanceof LedgerError)
      throw new UsageError(err.message);
    // The recording or --spec is not what it claims (HAR, NDJSON, spec): the message names which.
    if (err instanceof InputError) {
      console.error(`dealkit judge: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

/** `--clients`: the recording's clients judged (conformance/clients/), not the API. */
async function judgeClients(
  file: string,
  values: { "base-url"?: string; spec?: string; report?: string[]; "clients-report"?: string[] },
): Promise<number> {
  if (values.report) throw new UsageError("with --clients, reports are --clients-report F=PATH");
  try {
    const { code } = await judgeClientsCommand({
      file,
      reports: clientsReportOption(values["clients-report"] ?? []),
      ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}),
      ...(values.spec ? { specPath: values.spec } : {}),
    });
    return code;
  } catch (err) {
    if (err instanceof OptionError) throw new UsageError(err.message);
    if (err instanceof InputError) {
      console.error(`dealkit judge: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
