/**
 * Child-process entry: the practical ceiling. A bare node:http server answering, for each path,
 * the exact bytes the reference server answered for it (captured by the bench just before), with
 * no routing, parsing, database or headers beyond Content-Type and Content-Length.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface CapturedBody {
  contentType: string;
  /** The body as base64, byte for byte. */
  body: string;
}

const { bodiesFile } = JSON.parse(process.argv[2] ?? "{}") as { bodiesFile: string };
const captured = JSON.parse(readFileSync(bodiesFile, "utf8")) as Record<string, CapturedBody>;
const answers = new Map(
  Object.entries(captured).map(([path, c]) => {
    const body = Buffer.from(c.body, "base64");
    return [path, { body, headers: { "Content-Type": c.contentType, "Content-Length": body.length } }];
  }),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers).end(answer.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}`);
});
process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
