/**
 * Child-process entry: the reference server with options given as JSON. The bench passes
 * `clockStartSeconds` for an existing database: the server's clock then starts at the data's
 * reference time and runs at real speed, so the server never shifts the data in time (an UPDATE
 * of every row) in the middle of a measurement.
 */
import { type ServerOptions, startServer } from "../../reference-server/index.ts";

type Options = Omit<ServerOptions, "now"> & { clockStartSeconds?: number };

const options = JSON.parse(process.argv[2] ?? "{}") as Options;
const { clockStartSeconds, ...serverOptions } = options;
const offsetMs = clockStartSeconds === undefined ? 0 : clockStartSeconds * 1000 - Date.now();
const started = performance.now();
const server = await startServer({
  host: "127.0.0.1",
  port: 0,
  logger: false,
  ...serverOptions,
  ...(clockStartSeconds === undefined ? {} : { now: () => Date.now() + offsetMs }),
});
console.log(`READY ${JSON.stringify({ url: server.url, startMs: performance.now() - started })}`);
process.once("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
