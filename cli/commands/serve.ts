import { newKey } from "../../reference-server/auth.ts";
import { DEMO_ACCOUNT } from "../../reference-server/db/open.ts";
import { DEFAULTS, type ServerOptions, startServer } from "../../reference-server/index.ts";
import { debugHint } from "../../src/errors/one-line.ts";
import { durationOption, intOption, parseOptions, UsageError, withDefaultValue } from "../args.ts";

export const usage = `usage: dealkit serve [--port N] [--host ADDR] [--db PATH] [--size N] [--seed N]
                    [--redis-url URL [--redis-timeout MS]] [--trust-proxy IP,...] [--rate-limit N]
                    [--live [DURATION]] [--new-demo-key] [--quiet]

Serves every endpoint of the v1 spec on ${DEFAULTS.host}:${DEFAULTS.port} from SQLite (${DEFAULTS.dbPath}).
The database is created and filled with generated data on first start (--size alerts, --seed).
  --redis-url URL      share the per-IP rate limit with other instances through Redis; while Redis
                       fails, each instance limits on its own (reference-server/README.md)
  --redis-timeout MS   longest wait for Redis per request before counting in memory (default 50)
  --trust-proxy LIST   socket addresses whose X-Forwarded-For is believed (comma-separated)
  --rate-limit N       requests per window per IP (default from the spec; meta and the RateLimit
                       headers state the limit in force); 0 disables the limit
  --live [DURATION]    live data: a new alert every DURATION (default 10s; e.g. 5s, 500ms), a zdm
                       item every third, comments accruing, old alerts leaving the 20-day span
  --new-demo-key       give the demo account a new random key and print it once (only its hash
                       is stored): the way back to the personal streams on an existing database
  --quiet              no request logs
The demo account (uid ${DEMO_ACCOUNT.uid}) is made with the database and its key printed then, once;
DEALKIT_DEMO_KEY=<32 hex> sets the key instead.
See reference-server/README.md.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(withDefaultValue(args, "--live", "10s"), {
    port: { type: "string" },
    host: { type: "string" },
    db: { type: "string" },
    size: { type: "string" },
    seed: { type: "string" },
    "redis-url": { type: "string" },
    "redis-timeout": { type: "string" },
    "trust-proxy": { type: "string" },
    "rate-limit": { type: "string" },
    quiet: { type: "boolean" },
    live: { type: "string" },
    "new-demo-key": { type: "boolean" },
  });
  const liveEveryMs = durationOption("live", values.live);
  if (values["redis-timeout"] !== undefined && values["redis-url"] === undefined)
    throw new UsageError("--redis-timeout needs --redis-url");
  if (values["new-demo-key"] && process.env.DEALKIT_DEMO_KEY)
    throw new UsageError("--new-demo-key and DEALKIT_DEMO_KEY both choose the demo key: use one");
  const rateLimit = intOption("rate-limit", values["rate-limit"], 0, 1_000_000);
  const options: ServerOptions = {
    port: intOption("port", values.port, 0, 65_535),
    host: values.host,
    dbPath: values.db,
    size: intOption("size", values.size, 0, 5_000_000),
    seed: intOption("seed", values.seed, 0, 2 ** 32 - 1),
    redisUrl: values["redis-url"],
    redisTimeoutMs: intOption("redis-timeout", values["redis-timeout"], 1, 60_000),
    trustedProxies: values["trust-proxy"]
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    rateLimit: rateLimit === 0 ? false : rateLimit === undefined ? undefined : { limit: rateLimit },
    logger: !values.quiet,
    ...(liveEveryMs ? { liveEveryMs } : {}),
    ...(values["new-demo-key"] ? { demoKey: newKey() } : {}),
  };
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(options);
  } catch (err) {
    console.error(`dealkit serve: ${startupProblem(err, options)}`);
    return 2;
  }
  // Human lines go to stderr: stdout carries the JSON request logs.
  // One write: whoever waits for the address (a test, a script) has the demo account's lines too.
  console.error(
    `dealkit: reference server on ${server.url}${liveEveryMs ? ` (live data: a new alert every ${liveEveryMs / 1000} s)` : ""}\n` +
      demoAccountLines(server.demo),
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  console.error(`dealkit: ${signal}, closing`);
  await server.close();
  return 0;
}

/**
 * The demo account in the start-up lines, always: with its key when this start made one (the only
 * time it is known), else how to get one. Without it a restarted server left its user with a uid
 * nobody could sign in as, and the suite's five key-protected checks unjudged.
 */
function demoAccountLines(demo: { uid: number; key: string } | undefined): string {
  if (demo)
    return (
      `dealkit: demo account: uid ${demo.uid}, X-API-Key ${demo.key}\n` +
      "dealkit: the key is shown only now (only its hash is stored); set DEALKIT_DEMO_KEY to choose it."
    );
  return (
    `dealkit: demo account: uid ${DEMO_ACCOUNT.uid}; its key was shown when it was made (only its hash is stored)\n` +
    "dealkit: for a new key, restart with --new-demo-key added (npm run serve -- --new-demo-key)"
  );
}

/**
 * A start that failed, in one line an operator can act on (exit 2): no stack, whatever failed
 * (the port, the database, the Redis URL). DEALKIT_DEBUG=1 adds the stack.
 */
function startupProblem(err: unknown, options: ServerOptions): string {
  const e = err as NodeJS.ErrnoException;
  const where = `${options.host ?? DEFAULTS.host}:${options.port ?? DEFAULTS.port}`;
  const line =
    e.code === "EADDRINUSE"
      ? `${where} is in use (another server?); choose another port with --port (0 picks a free one)`
      : e.code === "EACCES"
        ? `not allowed to listen on ${where} (ports below 1024 need privileges)`
        : e.code === "EADDRNOTAVAIL"
          ? `${options.host} is not an address of this machine`
          : e.code?.startsWith("SQLITE_") || e.name === "SqliteError"
            ? `cannot use the database ${options.dbPath ?? DEFAULTS.dbPath}: ${e.message}`
            : `could not start: ${e.message}`;
  const hint = debugHint(err);
  return `${line.replace(/\s+/g, " ").trim()}${hint.startsWith("\n") ? hint : ""}`;
}
