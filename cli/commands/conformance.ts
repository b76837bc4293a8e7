import os from "node:os";
import { LedgerError } from "../../conformance/ledger/file.ts";
import { conformanceCommand, FORMATS, type ReportFormat } from "../../conformance/main.ts";
import { conformanceMatrix } from "../../conformance/matrix.ts";
import { UnknownCheckError } from "../../conformance/registry.ts";
import { DEFAULT_MAX_TIME_SECONDS, KNOWN_KEYS } from "../../conformance/runner/run.ts";
import { type AcceptEntry, AcceptListError, readAcceptList } from "../../src/accept/list.ts";
import { intOption, parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit conformance [--base-url URL] [--seed N] [--report FORMAT=PATH ...]
                          [--only CHECK,...] [--skip CHECK,...] [--budget N] [--max-time S] [--timeout S]
                          [--rate N/MIN] [--skip-slow] [--require-evidence | --allow-incomplete]
                          [--known FILE] [--plan]
                          [--record PATH] [--ledger FILE] [--watch D]
                          [--uid UID --api-key KEY]

Without --base-url the bundled reference server is started in process on an ephemeral loopback
port and checked. Several --base-url are checked one after another with the same options, and
each --report is then one file for all: the checks × targets matrix (html, markdown), every
target's report (json), one testsuite a target (junit); the exit code is the worst run's.
Exit 0 when every selected check passed with evidence; 1 when any failed; 2 for a usage error, input
that is not what it claims, or a target the run could not judge (unreachable, not this API); 3 when
the run is incomplete: nothing failed but something selected was not judged (a check not
exercised, a run cut short), its reason first. CHECK is a check name, "rules" (every rule check),
"account" (the checks only an account can judge) or a prefix ending in *.
  --report F=PATH     write a report: junit (CI test results), json (everything), markdown (a job
                      summary or pull-request comment), html (one self-contained page to open:
                      verdict, findings with copyable curl and replay lines, timeline, filterable
                      checks); repeatable
  --record PATH       every exchange as NDJSON, one a line as it comes (as dealkit proxy --record:
                      what dealkit judge reads back)
  --ledger FILE       a ledger kept between runs (JSON; created when missing): this run's answers
                      are merged into it (field paths, types, dates, versions served) and judged
                      against the runs before: a field no longer sent, a changed type, v1 retired
                      early fail; new fields are information (conformance/ledger/README.md)
  --watch D           instead of one run, watch: a small rotating sample every D (e.g. 10m) within
                      --budget requests per interval (default 20), into --ledger, NDJSON out: the
                      same as dealkit watch (see dealkit watch --help)
  --budget N          most requests of the whole run (default 218 from one address, 4000 when
                      spread over loopback addresses)
  --max-time S        stop sending after S seconds (default ${DEFAULT_MAX_TIME_SECONDS}); the report is written anyway
  --timeout S         deadline for one whole answer, headers and body (default 20)
  --rate N/MIN        the target's limit, when it was configured with another than the spec's:
                      paced at and judged against it (its manifest and 429s included)
  --skip-slow         do not wait Retry-After after the 429 burst
  --require-evidence  an incomplete run fails (exit 1 instead of 3)
  --allow-incomplete  an incomplete run exits 0 (its verdict still says incomplete, with why)
  --known FILE        findings accepted for now (YAML or JSON list: check, and optionally operation
                      and code, with reason and expires YYYY-MM-DD): shown, not failing; an entry
                      past its date fails the run; the ledger's checks (ledger:*) may be named too
  --plan              discover, print the plan (every request and what it is for), send nothing more
  --uid/--api-key     an account for the key-protected streams; the key may come from the
                      DEALKIT_API_KEY environment variable instead, which keeps it off the command
                      line and the process list. Without them the bundled server's demo account is
                      used, but against a --base-url the checks of served personal streams are not
                      judged and the run is incomplete (exit 3) unless you skip them with
                      --skip 'account' (every check only an account can judge; the identical 401
                      of rule:my-*-credentials is judged in part: whether the uid asked exists
                      needs an account)`;

/** `--watch D`: dealkit watch with this command's --base-url, --ledger and --budget (per interval there). */
async function watchInstead(
  values: Record<string, string | boolean | string[] | undefined>,
): Promise<number> {
  const allowed = new Set(["watch", "base-url", "ledger", "budget", "spec"]);
  const other = Object.keys(values).find((k) => values[k] !== undefined && !allowed.has(k));
  if (other)
    throw new UsageError(`--${other} does not go with --watch (it takes --base-url, --ledger and --budget)`);
  const pass = (name: string) =>
    typeof values[name] === "string" ? [`--${name}`, values[name] as string] : [];
  const { run: watch } = await import("./watch.ts");
  return watch([
    ...pass("base-url"),
    ...pass("ledger"),
    ...pass("budget"),
    ...pass("spec"),
    "--every",
    String(values.watch),
  ]);
}

const list = (v: string | undefined) =>
  v
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const OPTIONS = {
  "base-url": { type: "string", multiple: true },
  seed: { type: "string" },
  report: { type: "string", multiple: true },
  only: { type: "string" },
  skip: { type: "string" },
  budget: { type: "string" },
  rate: { type: "string" },
  "skip-slow": { type: "boolean" },
  "require-evidence": { type: "boolean" },
  "allow-incomplete": { type: "boolean" },
  plan: { type: "boolean" },
  "max-time": { type: "string" },
  timeout: { type: "string" },
  uid: { type: "string" },
  "api-key": { type: "string" },
  spec: { type: "string" },
  known: { type: "string" },
  record: { type: "string" },
  ledger: { type: "string" },
  watch: { type: "string" },
} as const;

type Values = ReturnType<typeof parseOptions<typeof OPTIONS>>["values"];

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const baseUrls = targetsOf(values);
  if (values.watch !== undefined) return watchInstead({ ...values, "base-url": baseUrls[0] });
  const options = await runOptions(values, baseUrls[0]);
  const stop = stopOnSignals();
  try {
    const withSignal = { signal: stop.signal, ...options };
    const { code } =
      baseUrls.length > 1
        ? await conformanceMatrix(withSignal, baseUrls)
        : await conformanceCommand(withSignal);
    return code;
  } catch (err) {
    if (err instanceof UnknownCheckError || err instanceof LedgerError) throw new UsageError(err.message);
    throw err;
  } finally {
    stop.release();
  }
}

/** Every --base-url, each an http(s) URL. Several: each target in turn, one matrix report (conformance/matrix.ts). */
function targetsOf(values: Values): string[] {
  const baseUrls = values["base-url"] ?? [];
  const bad = baseUrls.find((u) => !/^https?:\/\/[^/]+/.test(u));
  if (bad !== undefined) throw new UsageError(`--base-url must be an http(s) URL, got ${bad}`);
  // A ledger is one deployment's history: several targets would mix their answers in it.
  for (const single of ["record", "watch", "ledger"] as const)
    if (baseUrls.length > 1 && values[single] !== undefined)
      throw new UsageError(`--${single} takes one --base-url`);
  return baseUrls;
}

function reportsOf(values: Values): { format: ReportFormat; path: string }[] {
  return (values.report ?? []).map((r) => {
    const m = /^([a-z]+)=(.+)$/.exec(r);
    if (!m?.[1] || !m[2])
      throw new UsageError(`--report must be FORMAT=PATH (${Object.keys(FORMATS).join(", ")}), got ${r}`);
    if (!(m[1] in FORMATS))
      throw new UsageError(`--report format must be ${Object.keys(FORMATS).join(", ")}, got ${m[1]}`);
    return { format: m[1] as ReportFormat, path: m[2] };
  });
}

function rateOf(values: Values): { limit: number; windowSeconds: number } | undefined {
  if (values.rate === undefined) return undefined;
  const m = /^([0-9]+)\/MIN$/i.exec(values.rate);
  if (!m || Number(m[1]) < 1) throw new UsageError(`--rate must look like 60/MIN, got ${values.rate}`);
  return { limit: Number(m[1]), windowSeconds: 60 };
}

/** The account for the key-protected streams: --uid with --api-key or DEALKIT_API_KEY, both or neither. */
function accountOf(values: Values): { uid: string; key: string } | undefined {
  const apiKey = values["api-key"] ?? (values.uid !== undefined ? process.env.DEALKIT_API_KEY : undefined);
  if (values["require-evidence"] && values["allow-incomplete"])
    throw new UsageError("--require-evidence and --allow-incomplete contradict each other: choose one");
  if (values.uid === undefined && apiKey !== undefined) throw new UsageError("--api-key needs --uid");
  if (values.uid !== undefined && !apiKey)
    throw new UsageError("--uid needs --api-key (or the DEALKIT_API_KEY environment variable)");
  return values.uid && apiKey ? { uid: values.uid, key: apiKey } : undefined;
}

async function knownOf(path: string | undefined): Promise<AcceptEntry[] | undefined> {
  try {
    return path ? await readAcceptList(path, KNOWN_KEYS, "check") : undefined;
  } catch (err) {
    if (err instanceof AcceptListError) throw new UsageError(err.message);
    throw err;
  }
}

/** The run's options from the command line, each refused with a usage error when it is not what it claims. */
async function runOptions(values: Values, baseUrl: string | undefined) {
  const reports = reportsOf(values);
  const exchangeLog = values.record;
  const rate = rateOf(values);
  const account = accountOf(values);
  const seed = intOption("seed", values.seed, 0, 2 ** 31 - 1) ?? Math.floor(Math.random() * 2 ** 31);
  const budget = intOption("budget", values.budget, 1, 1_000_000);
  const maxTime = intOption("max-time", values["max-time"], 1, 86_400);
  const timeout = intOption("timeout", values.timeout, 1, 600);
  const known = await knownOf(values.known);
  return {
    ...(known ? { known } : {}),
    seed,
    reports,
    ...(exchangeLog ? { exchangeLog } : {}),
    ...(values.ledger ? { ledger: values.ledger } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(list(values.only) ? { only: list(values.only) } : {}),
    ...(list(values.skip) ? { skip: list(values.skip) } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(rate ? { rate } : {}),
    skipSlow: values["skip-slow"] ?? false,
    requireEvidence: values["require-evidence"] ?? false,
    allowIncomplete: values["allow-incomplete"] ?? false,
    planOnly: values.plan ?? false,
    ...(maxTime !== undefined ? { maxTimeSeconds: maxTime } : {}),
    ...(timeout !== undefined ? { limits: { deadlineMs: timeout * 1000 } } : {}),
    ...(account ? { account } : {}),
    ...(values.spec ? { specPath: values.spec } : {}),
  };
}

/**
 * Ctrl-C or a cancelled CI job: the run stops at once, judges what it received and writes every
 * report; a second signal ends the process without waiting.
 */
function stopOnSignals(): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(128 + (os.constants.signals[name] ?? 15));
    console.error(`dealkit conformance: ${name}: stopping; the reports are being written`);
    stop.abort(name);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: stop.signal,
    release: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
