import { LedgerError } from "../../conformance/ledger/file.ts";
import { FIXED_REQUESTS, watch } from "../../conformance/ledger/watch.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { durationOption, intOption, parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit watch --base-url URL --ledger FILE [--every 10m] [--budget 20] [--intervals N]

Watches one deployment without load: every interval a small rotating sample of valid requests
(v1's meta, one request to the next version's meta, the rest rotating over every public
operation and enumerated parameter value), each answer judged by the checks that read one answer
and recorded in the ledger, which is then judged against the runs before (a field no longer sent,
a changed type, v1 retired early; new fields as information). Prints NDJSON, one line as each
thing comes: {"kind":"finding"...} (the first of each), {"kind":"ledger"...} (a judgement, when
it first holds), {"kind":"interval"...} (requests sent, never over the budget). Ctrl-C or SIGTERM
stops it between two requests. Exit 0; 1 when a ledger judgement failed during the watch; 2 for
a usage error.
  --base-url URL    the deployment
  --ledger FILE     the ledger (created when missing; kept between runs: a cron job with
                    --intervals 1 continues the rotation where the last run left it)
  --every D         the interval (default 10m; 100ms to 60m)
  --budget N        most requests of one interval, everything included (default 20, at least
                    ${FIXED_REQUESTS + 1}, at most the spec's rate limit per window)
  --intervals N     stop after N intervals (default: until stopped)`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    "base-url": { type: "string" },
    ledger: { type: "string" },
    every: { type: "string" },
    budget: { type: "string" },
    intervals: { type: "string" },
    spec: { type: "string" },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const baseUrl = values["base-url"];
  if (!baseUrl || !/^https?:\/\/[^/]+/.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, got ${baseUrl ?? "nothing"}`);
  if (!values.ledger)
    throw new UsageError("--ledger FILE is required (the watch's memory between intervals)");
  const spec = await loadSpec(values.spec);
  const everyMs = durationOption("every", values.every ?? "10m") as number;
  const budget = intOption(
    "budget",
    values.budget ?? "20",
    FIXED_REQUESTS + 1,
    spec.rateLimit.limit,
  ) as number;
  const intervals = intOption("intervals", values.intervals, 1, 1_000_000);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const summaries = await watch({
      baseUrl,
      ledger: values.ledger,
      everyMs,
      budget,
      ...(intervals !== undefined ? { intervals } : {}),
      write: (line) => process.stdout.write(line),
      signal: stop.signal,
      ...(values.spec ? { specPath: values.spec } : {}),
    });
    return summaries.some((s) => s.judgements.some((j) => j.level === "failure")) ? 1 : 0;
  } catch (err) {
    if (err instanceof LedgerError) throw new UsageError(err.message);
    throw err;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
