/**
 * How the API responder writes an answer on Node's own response: every header in one flat array
 * handed to writeHead, the body ended at once (dropped for HEAD), and an answer's bytes and its
 * plain header tail prepared once per kept answer rather than per request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { COMPRESS_FROM_BYTES } from "../../src/http/compression.ts";
import { PROBLEM_JSON, type Problem } from "../../src/http/problems.ts";
import type { Answer } from "../routes/context.ts";
import { oneByte } from "./one-byte.ts";

// Header names written on every answer, one-byte (one-byte.ts: the literals alone are not).
export const CONTENT_TYPE = oneByte("Content-Type");
const CONTENT_LENGTH = oneByte("Content-Length");
const VARY = oneByte("Vary");
const JSON_TYPE = oneByte("application/json; charset=utf-8");

/** Response headers as writeHead takes them flat: name, value, name, value... */
export type HeaderLines = (string | number)[];

/**
 * An answer as the responder keeps it: the body in bytes, and the header lines that follow the
 * rate-limit ones when the body goes as it is (no Accept-Encoding), built once per answer rather
 * than per request: Content-Type, Vary where the body could have been compressed, Content-Length
 * (as text: Node would turn a number into text on every request, twice).
 */
export type Prepared = Answer & { body: Buffer; contentType: string; plainTail: string[] };

/** Headers complete (Content-Length included). */
export function sendAsIs(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: HeaderLines,
  body: Buffer,
): void {
  res.writeHead(status, headers);
  // HEAD: Node sends the headers (Content-Length included) and drops the body.
  res.end(req.method === "HEAD" ? undefined : body);
}

export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: HeaderLines,
  body: Buffer,
): void {
  headers.push(CONTENT_LENGTH, body.length);
  sendAsIs(req, res, status, headers, body);
}

export function sendProblem(
  req: IncomingMessage,
  res: ServerResponse,
  headers: HeaderLines,
  body: Problem,
): void {
  headers.push(CONTENT_TYPE, PROBLEM_JSON);
  send(req, res, body.status, headers, Buffer.from(JSON.stringify(body)));
}

/** `vary`: the compression policy's Vary value, one-byte. */
export function prepareAnswer(answer: Answer, vary: string): Prepared {
  const { body } = answer;
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  const contentType = answer.type === undefined ? JSON_TYPE : oneByte(answer.type);
  const plainTail = [CONTENT_TYPE, contentType];
  // Without Accept-Encoding nothing is compressed: the body goes as it is, with Vary when its
  // size could have been (a cache must keep the two forms apart).
  if (bytes.length >= COMPRESS_FROM_BYTES) plainTail.push(VARY, vary);
  plainTail.push(CONTENT_LENGTH, String(bytes.length));
  return Object.assign(answer, { body: bytes, contentType, plainTail });
}
