/**
 * Requests no HTTP client library sends, written byte for byte on a socket of their own (node:net,
 * node:tls for https): a head padded to an exact size, a header line that is no field, HTTP/1.1
 * without Host, a broken request line (x-request-gate). The answer is read as it comes (status line,
 * headers, a body by Content-Length, chunks or close), and then whether the server closed the
 * connection: the spec says it must after a refusal.
 */
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import type { RequestCase } from "../types.ts";
import { type AnswerLimits, caseUrl, classify, DEFAULT_LIMITS, type RawResponse } from "./client.ts";
import { decodeContent } from "./decode.ts";

/** How a raw request departs from a well-formed one. */
export interface WireRequest {
  /** Written instead of `METHOD target HTTP/1.1` (a broken request line). */
  requestLine?: string;
  /** HTTP/1.1 without Host. */
  noHost?: true;
  /** Header lines written as they are, after the request's own headers (a line that is no field). */
  lines?: string[];
  /** The head's total size in bytes, request line to the empty line: reached with one padding header. */
  headBytes?: number;
  /** Asks the server to close after a served answer, so it is read to the end without waiting. */
  close?: true;
}

/** The header a head is padded with to reach its size. */
export const PAD_HEADER = "X-Pad";

/** How long after its answer a server has to close the connection before it counts as kept open. */
export const CLOSE_GRACE_MS = 1500;

/** The head's lines as sent (no line ends), the padding line last but one before the end. */
export function headLines(request: RequestCase, url: URL): string[] {
  const wire = request.wire ?? {};
  const target = `${url.pathname}${url.search}`;
  const lines = [
    wire.requestLine ?? `${request.method} ${target} HTTP/1.1`,
    ...(wire.noHost ? [] : [`Host: ${url.host}`]),
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
    ...(wire.lines ?? []),
    ...(wire.close ? ["Connection: close"] : []),
  ];
  if (wire.headBytes === undefined) return lines;
  // Every line ends with CRLF, and the head with one more.
  const used = lines.reduce((n, l) => n + Buffer.byteLength(l) + 2, 2);
  const pad = wire.headBytes - used - Buffer.byteLength(`${PAD_HEADER}: `) - 2;
  return [...lines, `${PAD_HEADER}: ${"a".repeat(Math.max(1, pad))}`];
}

export const headBytes = (lines: string[]) => Buffer.from(`${lines.map((l) => `${l}\r\n`).join("")}\r\n`);

/** What a raw answer adds to an ordinary one: whether the server closed the connection after it. */
export interface RawWireResponse extends RawResponse {
  closed?: boolean;
}

interface Head {
  status: number;
  headers: Record<string, string>;
  length: number;
}

/** The status line and headers, once the empty line has come. */
function parseHead(buffer: Buffer): Head | undefined {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const status = /^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1];
  return { status: status ? Number(status) : -1, headers, length: end + 4 };
}

/** A chunked body undone, or undefined while its last chunk has not come. */
function unchunk(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf("\r\n", at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(body.subarray(at, eol).toString("latin1"), 16);
    if (!Number.isFinite(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (body.length < eol + 2 + size + 2) return undefined;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** The whole body when it has come (by Content-Length or chunks); undefined while more is due. */
function bodyOf(head: Head, rest: Buffer, ended: boolean): Buffer | undefined {
  if (head.status === 204 || head.status === 304) return Buffer.alloc(0);
  if (/chunked/i.test(head.headers["transfer-encoding"] ?? ""))
    return unchunk(rest) ?? (ended ? rest : undefined);
  const declared = Number(head.headers["content-length"]);
  if (Number.isInteger(declared))
    return rest.length >= declared ? rest.subarray(0, declared) : ended ? rest : undefined;
  return ended ? rest : undefined;
}

function open(url: URL, localAddress: string | undefined): Socket {
  const secure = url.protocol === "https:";
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const local = localAddress ? { localAddress } : {};
  return secure
    ? connectTls({ host, port, servername: /^[\d.:]+$/.test(host) ? "" : host, ...local })
    : connectTcp({ host, port, ...local });
}

type FailureKind = NonNullable<RawResponse["failure"]>["kind"];

/** What the bytes read so far make: nothing yet, no answer (and why), or a whole answer. */
type Reading =
  | { pending: true }
  | { failed: FailureKind; message: string }
  | { answer: Pick<RawResponse, "status" | "headers" | "text" | "failure"> };

/** Reads one answer from the bytes as they come: the head, then the body by length, chunks or close. */
class AnswerReader {
  private data = Buffer.alloc(0);
  head: Head | undefined;

  constructor(private readonly limits: AnswerLimits) {}

  feed(chunk: Buffer): void {
    this.data = Buffer.concat([this.data, chunk]);
  }

  read(ended: boolean): Reading {
    this.head ??= parseHead(this.data);
    const head = this.head;
    if (!head) {
      if (!ended) return { pending: true };
      return this.data.length
        ? { failed: "malformed", message: "no HTTP status line and headers" }
        : { failed: "reset", message: "the connection was closed without an answer" };
    }
    if (head.status < 0) return { failed: "malformed", message: "no HTTP status line" };
    const body = bodyOf(head, this.data.subarray(head.length), ended);
    if (!body) return { pending: true };
    const cap = this.limits.maxBodyBytes;
    if (body.length > cap) return { failed: "too-large", message: `body over the ${cap}-byte cap` };
    const decoded = decodeContent(body, head.headers["content-encoding"], cap);
    const text = "failure" in decoded ? "" : decoded.body.toString("utf8");
    const failure = "failure" in decoded ? { failure: decoded.failure } : {};
    return { answer: { status: head.status, headers: head.headers, text, ...failure } };
  }
}

/**
 * Sends a raw request and reads its answer within the limits. Resolves with a failure instead of
 * throwing: `unreachable` when no connection was made (refused, no route, a TLS handshake that
 * failed), since then nothing was sent; `reset`, `timeout` or `malformed` when the server took the
 * request and gave no readable answer. After a whole answer it waits up to CLOSE_GRACE_MS for the
 * server to close the connection (`closed`).
 */
export function sendRaw(
  baseUrl: string,
  request: RequestCase,
  localAddress: string | undefined,
  limits: AnswerLimits = DEFAULT_LIMITS,
  signal?: AbortSignal,
): Promise<RawWireResponse> {
  const url = caseUrl(baseUrl, request);
  const target = new URL(url);
  const sentAt = Date.now() / 1000;
  return new Promise((resolve) => {
    const socket = open(target, localAddress);
    const reader = new AnswerReader(limits);
    let connected = false;
    let answer: RawWireResponse | undefined;
    let grace: NodeJS.Timeout | undefined;
    const settle = (r: RawWireResponse) => {
      clearTimeout(timer);
      clearTimeout(grace);
      signal?.removeEventListener("abort", abort);
      socket.destroy();
      resolve(r);
    };
    const base = () => ({ url, sentAt, receivedAt: Date.now() / 1000 });
    const fail = (kind: FailureKind, message: string) =>
      settle({
        ...base(),
        status: reader.head?.status ?? 0,
        headers: reader.head?.headers ?? {},
        text: "",
        failure: { kind, message },
      });
    const read = (ended: boolean) => {
      if (answer) return ended ? settle({ ...answer, closed: true }) : undefined;
      const reading = reader.read(ended);
      if ("failed" in reading) return fail(reading.failed, reading.message);
      if ("pending" in reading) return undefined;
      answer = { ...base(), ...reading.answer };
      if (ended) return settle({ ...answer, closed: true });
      // Still open past the grace: the server keeps the connection.
      const kept = answer;
      grace = setTimeout(() => settle({ ...kept, closed: false }), CLOSE_GRACE_MS);
    };
    const abort = () => fail("reset", "the run was stopped");
    signal?.addEventListener("abort", abort);
    const timer = setTimeout(
      () => fail("timeout", `no whole answer within ${limits.deadlineMs} ms`),
      limits.deadlineMs,
    );
    socket.on(target.protocol === "https:" ? "secureConnect" : "connect", () => {
      connected = true;
      // Written, not ended: a half-closed client would make the server close, whether the spec asks it or not.
      socket.write(headBytes(headLines(request, target)));
    });
    socket.on("data", (chunk: Buffer) => {
      reader.feed(chunk);
      read(false);
    });
    socket.on("end", () => read(true));
    socket.on("close", () => read(true));
    socket.on("error", (err: NodeJS.ErrnoException) => {
      // An answer (or its head) that came before the error (a reset after a refusal) stands.
      if (answer || reader.head) return read(true);
      fail(connected ? classify(err) : "unreachable", `${connected ? "" : "not connected: "}${err.message}`);
    });
  });
}

/**
 * A shell line sending the same bytes (curl cannot send what it refuses to write): each head line
 * to printf, the padding built by the shell, through nc or, for https, openssl s_client.
 */
export function wireLine(exchange: {
  url: string;
  request: RequestCase;
  localAddress?: string | undefined;
}): string {
  const url = new URL(exchange.url);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const words = headLines(exchange.request, url).map((line) => {
    if (!line.startsWith(`${PAD_HEADER}: `) || exchange.request.wire?.headBytes === undefined)
      return quote(line);
    const length = line.length - PAD_HEADER.length - 2;
    return `"${PAD_HEADER}: $(head -c ${length} /dev/zero | tr '\\0' a)"`;
  });
  const secure = url.protocol === "https:";
  const port = url.port || (secure ? "443" : "80");
  const host = url.hostname;
  const to = secure
    ? `openssl s_client -quiet -connect ${host}:${port}`
    : `nc ${exchange.localAddress ? `-s ${exchange.localAddress} ` : ""}${host} ${port}`;
  return `printf '%s\\r\\n' ${words.join(" ")} '' | ${to}`;
}
