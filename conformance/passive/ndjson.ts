/**
 * The NDJSON the kit writes and reads: one JSON object a line, `kind` first. "exchange" lines are
 * traffic (what the suite sent with `--record PATH`, what the proxy passed with
 * `--record PATH`), which `dealkit judge` reads back; "finding" lines are the proxy's live stream
 * (`--report ndjson=PATH` of the proxy). Secrets are redacted on the way out.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { InputError } from "../../src/errors/input-error.ts";
import type { Exchange } from "../types.ts";
import type { FindingRecord } from "./judging.ts";
import { REDACTED, type Traffic } from "./traffic.ts";

/** Headers whose value never leaves the process (their presence does), requests and answers alike. */
const SECRET_HEADERS = new Set(["x-api-key", "authorization", "cookie", "proxy-authorization", "set-cookie"]);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : v]),
  );
}

/** An exchange line. */
export function exchangeLine(traffic: Traffic): string {
  return `${JSON.stringify({
    kind: "exchange",
    ...traffic,
    requestHeaders: redactHeaders(traffic.requestHeaders),
    responseHeaders: redactHeaders(traffic.responseHeaders),
  })}\n`;
}

/** A finding line of the live stream. */
export function findingLine(f: FindingRecord, at = new Date()): string {
  return `${JSON.stringify({ kind: "finding", at: at.toISOString(), ...f })}\n`;
}

/** The suite's own exchange as traffic (the runner's, before any body is released). */
export function trafficOfExchange(e: Exchange): Traffic {
  return {
    method: e.request.method,
    url: e.url,
    requestHeaders: e.request.headers,
    ...(e.localAddress ? { client: e.localAddress } : {}),
    status: e.status,
    responseHeaders: e.headers,
    body: e.text,
    startedAt: e.sentAt,
    receivedAt: e.receivedAt,
    ...(e.failure ? { failure: e.failure } : {}),
    ...(e.request.wire ? { raw: true as const } : {}),
  };
}

/** Thrown for a line that is not one of ours: the file is not the kit's NDJSON (the message names file and line). */
export class NdjsonError extends InputError {}

function asTraffic(line: Record<string, unknown>, n: number): Traffic {
  const str = (k: string) => {
    if (typeof line[k] !== "string") throw new NdjsonError(`line ${n}: exchange without a string ${k}`);
    return line[k] as string;
  };
  const num = (k: string) => (typeof line[k] === "number" ? (line[k] as number) : 0);
  const headers = (k: string) => {
    const h = line[k];
    if (!h || typeof h !== "object") return {};
    return Object.fromEntries(Object.entries(h).map(([name, v]) => [name.toLowerCase(), String(v)]));
  };
  return {
    method: str("method"),
    url: str("url"),
    requestHeaders: headers("requestHeaders"),
    ...(typeof line.client === "string" ? { client: line.client } : {}),
    status: num("status"),
    responseHeaders: headers("responseHeaders"),
    ...(typeof line.body === "string" ? { body: line.body } : {}),
    ...(typeof line.bodyNotKept === "string" ? { bodyNotKept: line.bodyNotKept } : {}),
    startedAt: num("startedAt"),
    receivedAt: num("receivedAt"),
    ...(line.failure && typeof line.failure === "object"
      ? { failure: line.failure as Traffic["failure"] }
      : {}),
    ...(line.raw === true ? { raw: true as const } : {}),
  };
}

/**
 * The exchanges of an NDJSON file, streamed. Lines of the kit's other kinds (a proxy's findings)
 * are passed over; a line with no kind is not the kit's, and refused with its number.
 */
export async function* readNdjson(path: string): AsyncGenerator<Traffic> {
  const lines = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let n = 0;
  for await (const text of lines) {
    n++;
    if (!text.trim()) continue;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch (err) {
      throw new NdjsonError(`${path}: line ${n} is not JSON (${(err as Error).message.split("\n")[0]})`);
    }
    if (!line || typeof line !== "object" || Array.isArray(line))
      throw new NdjsonError(`${path}: line ${n} is not a JSON object`);
    const kind = (line as { kind?: unknown }).kind;
    if (typeof kind !== "string") throw new NdjsonError(`${path}: line ${n} is not an exchange (no "kind")`);
    if (kind === "exchange") {
      try {
        yield asTraffic(line as Record<string, unknown>, n);
      } catch (err) {
        throw err instanceof NdjsonError ? new NdjsonError(`${path}: ${err.message}`) : err;
      }
    }
  }
}
