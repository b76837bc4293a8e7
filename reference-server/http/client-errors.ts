import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { allowHeader } from "../../src/http/methods.ts";
import { PROBLEM_JSON, type Problem, problem, rateLimited } from "../../src/http/problems.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { type RateLimiter, rateLimitHeaders } from "../ratelimit/limiter.ts";
import { normalize } from "./client-ip.ts";

/** What Node's HTTP parser reports on the `clientError` event. */
interface ClientError extends Error {
  code?: string;
  /** llhttp's reason ("Invalid header value char"); never the raw bytes, which may be anything. */
  reason?: string;
}

export interface ClientErrorParts {
  spec: Spec;
  cors: Record<string, string>;
  limiter?: RateLimiter;
  trusted: ReadonlySet<string>;
  now: () => number;
}

/** The contract's answer to a request the parser refused (x-problem-types). */
function answerFor(spec: Spec, err: ClientError): { body: Problem; headers: Record<string, string> } {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return { body: problem(spec, "headers-too-large"), headers: {} };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { body: problem(spec, "request-timeout"), headers: {} };
    case "HPE_INVALID_METHOD":
      return {
        body: problem(spec, "method-not-allowed"),
        headers: { Allow: allowHeader(spec) },
      };
    default: {
      const why = err.reason ?? err.code ?? "unreadable";
      return {
        body: problem(spec, "malformed-request", { detail: `The request is not valid HTTP: ${why}.` }),
        headers: {},
      };
    }
  }
}

function write(socket: Socket, status: number, headers: Record<string, string>, body: string): void {
  if (!socket.writable) return void socket.destroy();
  const lines = Object.entries({
    ...headers,
    "Content-Type": PROBLEM_JSON,
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
  }).map(([k, v]) => `${k}: ${v}`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n${lines.join("\r\n")}\r\n\r\n${body}`);
  // end() closes our side only, and Node stops timing a socket out after a client error: a client
  // that never closes its side would hold the socket, and a graceful close, for ever.
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** How long a refused client has to read the answer before the socket is destroyed. */
const LINGER_MS = 1000;

/** Answers and closes: counted under the socket address when that is the client's. */
function refuse(
  parts: ClientErrorParts,
  socket: Socket,
  answer: { body: Problem; headers: Record<string, string> },
) {
  const reply = (extra: Record<string, string>, body: Problem = answer.body) =>
    write(socket, body.status, { ...parts.cors, ...answer.headers, ...extra }, JSON.stringify(body));
  const peer = normalize(socket.remoteAddress ?? "");
  if (!parts.limiter || !peer || parts.trusted.has(peer)) {
    reply({});
    return;
  }
  parts.limiter.hit(peer, parts.now()).then(
    (decision) => {
      const limited = rateLimited(parts.spec, Math.max(1, decision.resetSeconds), parts.limiter?.policy);
      reply(rateLimitHeaders(decision), decision.allowed ? answer.body : limited);
    },
    () => reply({}),
  );
}

/**
 * Fastify's clientErrorHandler: requests Node refuses before routing (a malformed request line or
 * header, an unknown method token, headers over the size limit, headers that never finish) get
 * problem+json with CORS like every other error, instead of Fastify's own `{"error":…}` body. The
 * request counts toward the limit under the socket address when that is the client (a trusted
 * proxy's socket stands for many clients, and the parser stopped before X-Forwarded-For).
 */
export function clientErrorHandler(parts: ClientErrorParts) {
  return (err: ClientError, socket: Socket): void => {
    // A reset connection has no one left to answer.
    if (err.code === "ECONNRESET" || socket.destroyed) return;
    refuse(parts, socket, answerFor(parts.spec, err));
  };
}

/**
 * CONNECT never reaches Fastify: Node hands it to the server's "connect" listener, and without
 * one drops the connection unanswered. The API is no tunnel: a 405 like any other method.
 */
export function connectHandler(parts: ClientErrorParts) {
  return (_req: unknown, socket: Socket): void => {
    refuse(
      parts,
      socket,
      answerFor(parts.spec, { name: "Error", message: "CONNECT", code: "HPE_INVALID_METHOD" }),
    );
  };
}
