import { OptionError } from "../../conformance/passive/option-error.ts";
import { proxyInWorker } from "../../conformance/passive/threaded-proxy.ts";
import { intOption, parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit proxy --upstream URL [--port N] [--host ADDR] [--errors] [--forwarded-for]
                    [--report FORMAT=PATH ...] [--record PATH] [--record-har PATH]
                    [--rate N/MIN] [--only CHECK,...] [--skip CHECK,...] [--ledger FILE]
                    [--clients-report FORMAT=PATH ...]

Forwards every request to URL (a deployment: staging, production) and judges each exchange with
every check and rule that applies to one answer, and the cross-answer rules when one client's
traffic gives both sides. Passing answers are never changed (status, headers but hop-by-hop
ones, body bytes) and stream as they arrive. Findings print as they come (the first of each
kind, with its curl line). Ctrl-C (SIGINT) or SIGTERM stops it and writes the reports: exit 0
when no check failed, 1 when one did, 2 for a usage error.
  --upstream URL      the API to forward to (scheme, host, port, optional path prefix)
  --port N            where clients connect (default 4020; 0 picks a free port)
  --host ADDR         the address to listen on (default 127.0.0.1)
  --errors            answer an exchange that breaks a rule with a 502 problem+json naming it, so
                      a client's own test suite fails loudly; the answer is then held until
                      judged (up to the 8 MB body cap) instead of streamed
  --forwarded-for     add the client's address to X-Forwarded-For (off: the upstream sees the
                      proxy as the client, and limits it as one)
  --report F=PATH     junit, json, markdown, html: written on exit; ndjson: every finding, one a line,
                      as it comes; repeatable
  --record PATH       every exchange as NDJSON (dealkit judge reads it back)
  --record-har PATH   every exchange as a HAR file (secrets redacted)
  --rate N/MIN        the deployment's limit, when it was configured with another than the spec's
                      (its manifest and headers are judged against it, as dealkit conformance does)
  --only/--skip       check names as for dealkit conformance
  --ledger FILE       merge what was seen into a ledger kept between runs, and judge it against
                      the runs before (as dealkit conformance --ledger; dated by the traffic)
  --clients-report F=PATH  judge the clients too (x-client-rules: Retry-After waits, 429 storms,
                      refused and repeated requests, where keys travel), per source address;
                      json, markdown, html, junit, written on exit and on demand (SIGUSR2);
                      repeatable (mocks/README.md)`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    upstream: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    errors: { type: "boolean" },
    "forwarded-for": { type: "boolean" },
    report: { type: "string", multiple: true },
    record: { type: "string" },
    "record-har": { type: "string" },
    rate: { type: "string" },
    only: { type: "string" },
    skip: { type: "string" },
    spec: { type: "string" },
    ledger: { type: "string" },
    "clients-report": { type: "string", multiple: true },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const upstream = values.upstream;
  if (!upstream) throw new UsageError("--upstream URL is required");
  if (!/^https?:\/\/[^/]+/.test(upstream))
    throw new UsageError(`--upstream must be an http(s) URL, got ${upstream}`);
  let proxy: Awaited<ReturnType<typeof proxyInWorker>>;
  try {
    // Forwarding and judging each run in a worker thread with a bounded heap (threaded-proxy.ts);
    // the options are read there too, so that this thread, which only waits for a signal, stays light.
    proxy = await proxyInWorker({
      upstream,
      port: intOption("port", values.port, 0, 65_535) ?? 4020,
      ...(values.host ? { host: values.host } : {}),
      errors: values.errors ?? false,
      forwardedFor: values["forwarded-for"] ?? false,
      report: values.report ?? [],
      ...(values.record ? { record: values.record } : {}),
      ...(values["record-har"] ? { recordHar: values["record-har"] } : {}),
      ...(values.rate !== undefined ? { rate: values.rate } : {}),
      ...(values.only !== undefined ? { only: values.only } : {}),
      ...(values.skip !== undefined ? { skip: values.skip } : {}),
      ...(values.spec ? { spec: values.spec } : {}),
      ...(values.ledger ? { ledger: values.ledger } : {}),
      ...(values["clients-report"] ? { clientsReport: values["clients-report"] } : {}),
    });
  } catch (err) {
    if (err instanceof OptionError) throw new UsageError(err.message);
    const e = err as NodeJS.ErrnoException;
    // A recording or report file that cannot be opened: refused before anything listens.
    if (e.syscall === "open" || e.code === "EISDIR") {
      console.error(`dealkit proxy: cannot write ${e.path ?? "a file"}: ${e.code ?? e.message}`);
      return 2;
    }
    if (e.code === "EADDRINUSE" || e.code === "EACCES" || e.code === "EADDRNOTAVAIL") {
      console.error(`dealkit proxy: cannot listen: ${e.message} (choose another --port or --host)`);
      return 2;
    }
    throw err;
  }
  const onDemand = () => void proxy.writeClients?.();
  process.on("SIGUSR2", onDemand);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (s: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(s);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  process.off("SIGUSR2", onDemand);
  console.log(`dealkit proxy: ${signal}, finishing the exchanges in flight`);
  return (await proxy.stop()).code;
}
