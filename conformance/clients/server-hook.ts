/**
 * The client judge on a Node HTTP server the kit runs (the mock): every exchange observed once,
 * when its answer is complete, and the current report served as JSON at CLIENTS_REPORT_PATH, a
 * path outside the API's (checked against the spec when attached), so a client's own test suite
 * can assert on it at the end of its run. The report request itself is not observed.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { ClientJudge } from "./judge.ts";
import { problemTypeOf } from "./observation.ts";
import type { ClientObservation } from "./types.ts";
import { variationsOf } from "./variations.ts";

export const CLIENTS_REPORT_PATH = "/__dealkit/clients";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Puts the judge in front of the server's own request listeners; `now` in milliseconds (the server's clock). */
export function attachClientJudge(server: Server, judge: ClientJudge, now: () => number = Date.now): void {
  if (judge.spec.match(CLIENTS_REPORT_PATH))
    throw new Error(`${CLIENTS_REPORT_PATH} is a path of the spec: the client report cannot be served there`);
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? "/", "http://mock.invalid").pathname === CLIENTS_REPORT_PATH) {
      // Any origin may read it: a browser test suite on another port asks for it as it asks the API.
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "access-control-allow-origin": "*",
      });
      res.end(JSON.stringify(judge.report()));
      return;
    }
    watch(req, res, judge, now);
    for (const listener of listeners) listener.call(server, req, res);
  });
}

function watch(req: IncomingMessage, res: ServerResponse, judge: ClientJudge, now: () => number): void {
  const time = now() / 1000;
  let body: Buffer | undefined;
  // Headers given to writeHead() never reach getHeaders(): kept as they pass.
  let written: Record<string, string> = {};
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const headers = args.find((a, i) => i > 0 && a !== null && typeof a === "object");
    if (headers) written = headerObject(headers);
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  // The answer's last chunk is the whole body for the mock's answers (sent at once): kept for a problem's type.
  res.end = ((...args: unknown[]) => {
    if (Buffer.isBuffer(args[0]) || typeof args[0] === "string") body = Buffer.from(args[0] as string);
    return end(...args);
  }) as ServerResponse["end"];
  res.once("finish", () =>
    judge.observe(observationOf(req, res, time, now() / 1000, { body, written }, judge)),
  );
}

function observationOf(
  req: IncomingMessage,
  res: ServerResponse,
  time: number,
  answeredAt: number,
  sent: { body: Buffer | undefined; written: Record<string, string> },
  judge: ClientJudge,
): ClientObservation {
  const requestHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    requestHeaders[k] = Array.isArray(v) ? v.join(", ") : String(v);
  const responseHeaders = { ...headerObject(res.getHeaders()), ...sent.written };
  const problemType = problemTypeOf(responseHeaders, decoded(sent.body, responseHeaders["content-encoding"]));
  return {
    time,
    answeredAt,
    client: (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""),
    ...(requestHeaders["user-agent"] ? { userAgent: requestHeaders["user-agent"] } : {}),
    method: req.method ?? "GET",
    target: req.url ?? "/",
    requestHeaders,
    status: res.statusCode,
    responseHeaders,
    ...(problemType ? { problemType } : {}),
    variations: variationsOf(responseHeaders, judge.rules.variationsHeader),
  };
}

/** Header names lower-cased, values as text: from an object or a flat [name, value, ...] list. */
function headerObject(headers: object): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2)
      out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

function decoded(body: Buffer | undefined, coding: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    if (coding === "gzip") return gunzipSync(body).toString("utf8");
    if (coding === "deflate") return inflateSync(body).toString("utf8");
    if (coding === "br") return brotliDecompressSync(body).toString("utf8");
    return body.toString("utf8");
  } catch {
    return undefined;
  }
}
