import { clientsReportOption, writeClientReports } from "../../conformance/clients/report-files.ts";
import { OptionError } from "../../conformance/passive/option-error.ts";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { startMock } from "../../mocks/start.ts";
import { intOption, parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit mock [--port 4010] [--host 127.0.0.1] [--dynamic] [--seed S] [--no-rules] [--spec PATH]
                   [--uid UID --api-key KEY] [--variations SEED] [--clients-report FORMAT=PATH ...]

Starts Prism on the spec and, in front of it, the rule layer: parameter validation with the
API's problem+json, the x-conformance rules, CORS and the 60/min/IP limit. Valid requests are
answered from a generated fixture set (mocks/fixtures/fixtures.json; --dynamic: a new draw of its
generator, repeatable with --seed S). --no-rules serves plain Prism on the port instead (--dynamic
then is Prism's -d).
Force any documented answer with Prism's Prefer header, e.g.
  curl -H 'Prefer: code=429' http://127.0.0.1:4010/api/v1/meta
The personal streams accept one account: by default uid ${DEFAULT_DEMO_ACCOUNT.uid} with
X-API-Key ${DEFAULT_DEMO_ACCOUNT.apiKey}; every other uid or key gets the uniform 401.
--variations SEED varies the answers as v1 allows (fields added, optional fields absent, content
omitted, keys shuffled, compressed or not, now and then an honest 429), deterministically from SEED
and each client's sequence of requests; each answer names its variations in X-Dealkit-Variations.
Every client is judged too (x-client-rules: Retry-After waits, 429 storms, refused and repeated
requests, where keys travel, what it did after a varied answer), per source address; the current
report is served as JSON at GET /__dealkit/clients (outside the API's paths), so a client's own
test suite can assert on it at the end of its run.
  --clients-report F=PATH  json, markdown, html, junit: written on exit (SIGINT, SIGTERM) and on
                      demand (SIGUSR2); repeatable
See mocks/README.md ("Variations", "Judging clients").`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, {
    port: { type: "string" },
    host: { type: "string" },
    dynamic: { type: "boolean" },
    seed: { type: "string" },
    "no-rules": { type: "boolean" },
    spec: { type: "string" },
    uid: { type: "string" },
    "api-key": { type: "string" },
    variations: { type: "string" },
    "clients-report": { type: "string", multiple: true },
  });
  if (values.variations !== undefined && values["no-rules"])
    throw new UsageError("--variations needs the rule layer: drop --no-rules");
  const apiKey = values["api-key"] ?? DEFAULT_DEMO_ACCOUNT.apiKey;
  if (!/^[0-9a-f]{32}$/.test(apiKey)) throw new UsageError("--api-key must be 32 lowercase hex characters");
  const account = {
    uid: intOption("uid", values.uid, 1, 999_999_999) ?? DEFAULT_DEMO_ACCOUNT.uid,
    apiKey,
  };
  const clientReports = clientsReportFiles(values["clients-report"]);
  const mock = await startMock({
    port: intOption("port", values.port, 0, 65535) ?? 4010,
    host: values.host ?? "127.0.0.1",
    dynamic: values.dynamic ?? false,
    seed: values.seed,
    rules: !values["no-rules"],
    specPath: values.spec,
    account,
    variations: values.variations,
  });
  const mode = values["no-rules"]
    ? values.dynamic
      ? "Prism's generated bodies"
      : "the spec's examples"
    : values.dynamic
      ? `a fixture set drawn for this run${values.seed === undefined ? "" : ` (seed ${values.seed})`}`
      : "the fixture set";
  const layer = values["no-rules"]
    ? "plain Prism, no rule layer"
    : `rule layer over Prism at ${mock.prismUrl}`;
  console.log(`dealkit mock listening on ${mock.url} (${mode}; ${layer}). Ctrl-C stops it.`);
  if (values.variations !== undefined)
    console.log(`variations: seed ${values.variations}; each answer lists its own in X-Dealkit-Variations`);
  if (!values["no-rules"]) console.log(`personal streams: uid ${account.uid}, X-API-Key ${account.apiKey}`);
  const writeClients = async () => {
    const report = mock.clients?.();
    if (report && clientReports.length) await writeClientReports(clientReports, report);
    if (report) console.log(`dealkit mock: clients ${report.headline}`);
  };
  const onDemand = () => void writeClients();
  process.on("SIGUSR2", onDemand);
  const stopped = await Promise.race([
    new Promise<string>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    }),
    mock.prismExited.then((code) => `prism exited (code ${code})`),
  ]);
  process.off("SIGUSR2", onDemand);
  await writeClients();
  await mock.close();
  console.log(`dealkit mock: stopped: ${stopped}`);
  return stopped.startsWith("SIG") ? 0 : 1;
}

/** `--clients-report F=PATH ...`, a wrong one a usage error before the mock starts. */
function clientsReportFiles(given: string[] | undefined) {
  try {
    return clientsReportOption(given ?? []);
  } catch (err) {
    if (err instanceof OptionError) throw new UsageError(err.message);
    throw err;
  }
}
