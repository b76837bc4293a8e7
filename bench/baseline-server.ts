/**
 * Child-process entry: the practical ceiling. A bare node:http server answering, for each path,
 * the exact bytes the reference server answered for it (captured by the bench just before): the
 * body and, with `headers: "captured"`, the same header lines in the same order with the values
 * of the capture (Node adds Date, Connection and Keep-Alive itself, as it does for the server),
 * so both write the same bytes. With `headers: "body-only"` it writes only Content-Type and
 * Content-Length (the ceiling the bench used before issue 25; kept to show the difference).
 * No routing, parsing, database or limiter either way.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serveBare } from "./servers/serve-bare.ts";

export interface CapturedBody {
  contentType: string;
  /** The body as base64, byte for byte. */
  body: string;
  /** The answer's header lines as sent (name, value), in order, without Date, Connection, Keep-Alive. */
  headers: [string, string][];
  /** The server's keep-alive timeout (its Keep-Alive line), ms. */
  keepAliveMs: number;
}

type HeaderMode = "captured" | "body-only";

const { bodiesFile, headers: mode = "captured" } = JSON.parse(process.argv[2] ?? "{}") as {
  bodiesFile: string;
  headers?: HeaderMode;
};
const captured = JSON.parse(readFileSync(bodiesFile, "utf8")) as Record<string, CapturedBody>;
const answers = new Map(
  Object.entries(captured).map(([path, c]) => {
    const body = Buffer.from(c.body, "base64");
    const headers =
      mode === "captured"
        ? c.headers.flat()
        : { "Content-Type": c.contentType, "Content-Length": body.length };
    return [path, { body, headers }];
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
const first = Object.values(captured)[0];
server.keepAliveTimeout = mode === "captured" && first ? first.keepAliveMs : 60_000;
serveBare(server);
