import { readFile } from "node:fs/promises";
import { InputError } from "../../src/errors/input-error.ts";
import { parseJsonText } from "../../src/errors/parse-text.ts";
import type { TransportFailure } from "../http/client.ts";
import { redactHeaders } from "./ndjson.ts";
import type { Recording } from "./recording.ts";
import type { Traffic } from "./traffic.ts";

interface HarHeader {
  name: string;
  value: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarHeader[] };
  response: {
    status: number;
    headers: HarHeader[];
    content: { size?: number; mimeType?: string; text?: string; encoding?: string; comment?: string };
  };
  _error?: string;
  _failure?: TransportFailure;
  _client?: string;
  /** Unix seconds, unrounded: startedDateTime keeps milliseconds, and back to back is a matter of less. */
  _startedAt?: number;
  _receivedAt?: number;
}

/** A file read as a HAR that is not one: the message names the file, and the entry when one is at fault. */
export class HarError extends InputError {}

const list = (headers: Record<string, string>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

const record = (headers: HarHeader[] | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  if (headers !== undefined && !Array.isArray(headers))
    throw new HarError("headers must be a list of { name, value }");
  for (const h of headers ?? []) {
    if (typeof h?.name !== "string") continue;
    // HTTP/2 pseudo-headers (":authority") are not headers of the answer.
    const name = h.name.toLowerCase();
    if (name.startsWith(":")) continue;
    out[name] = out[name] === undefined ? String(h.value) : `${out[name]}, ${h.value}`;
  }
  return out;
};

/** One exchange as a HAR entry. */
export function harEntry(t: Traffic): HarEntry {
  const url = new URL(t.url);
  const ms = Math.max(0, (t.receivedAt - t.startedAt) * 1000);
  return {
    startedDateTime: new Date(t.startedAt * 1000).toISOString(),
    time: ms,
    request: {
      method: t.method,
      url: t.url,
      httpVersion: "HTTP/1.1",
      headers: list(redactHeaders(t.requestHeaders)),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: t.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      headers: list(redactHeaders(t.responseHeaders)),
      cookies: [],
      content: {
        size: t.body !== undefined ? Buffer.byteLength(t.body) : -1,
        mimeType: t.responseHeaders["content-type"] ?? "",
        ...(t.body !== undefined ? { text: t.body } : { comment: t.bodyNotKept ?? "not recorded" }),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: ms, receive: 0 },
    ...(t.failure ? { _error: t.failure.message, _failure: t.failure } : {}),
    ...(t.client ? { _client: t.client } : {}),
    _startedAt: t.startedAt,
    _receivedAt: t.receivedAt,
  } as HarEntry;
}

/** Writes a HAR as exchanges come (entries streamed to the file, closed by `close`). */
export class HarWriter {
  private entries = 0;

  constructor(private readonly out: Recording) {
    out.write(
      `{"log":{"version":"1.2","creator":{"name":"dealkit proxy","version":"1"},"pages":[],"entries":[\n`,
    );
  }

  write(t: Traffic): void {
    this.out.write(`${this.entries++ > 0 ? ",\n" : ""}${JSON.stringify(harEntry(t))}`);
  }

  close(): Promise<void> {
    this.out.write("\n]}}\n");
    return this.out.close();
  }
}

function asTraffic(e: HarEntry, i: number): Traffic {
  if (typeof e?.request?.url !== "string" || typeof e.request.method !== "string")
    throw new HarError(`entry ${i} has no request method and URL`);
  const parsed = e._startedAt ?? Date.parse(e.startedDateTime) / 1000;
  const started = Number.isFinite(parsed) ? parsed : 0;
  const status = Number(e.response?.status ?? 0);
  const content = e.response?.content ?? {};
  const failure: TransportFailure | undefined =
    e._failure ??
    (status === 0 ? { kind: "reset", message: e._error ?? "no answer recorded (status 0)" } : undefined);
  const body =
    typeof content.text === "string"
      ? content.encoding === "base64"
        ? Buffer.from(content.text, "base64").toString("utf8")
        : content.text
      : undefined;
  return {
    method: e.request.method,
    url: e.request.url,
    requestHeaders: record(e.request.headers),
    ...(e._client ? { client: e._client } : {}),
    status: failure ? 0 : status,
    responseHeaders: record(e.response?.headers),
    ...(body !== undefined
      ? { body }
      : {
          bodyNotKept: content.comment ? `body not in the HAR (${content.comment})` : "body not in the HAR",
        }),
    startedAt: started,
    receivedAt: e._receivedAt ?? started + Math.max(0, Number(e.time) || 0) / 1000,
    ...(failure ? { failure } : {}),
  };
}

/** The exchanges of a HAR file, in the order of their start. */
export async function readHar(path: string): Promise<Traffic[]> {
  // A syntax error is a ParseError naming the file, line and column.
  const doc = parseJsonText(await readFile(path, "utf8"), path) as { log?: { entries?: HarEntry[] } } | null;
  const entries = doc?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError(`${path}: not a HAR file (no log.entries list)`);
  const traffic = entries.map((e, i) => {
    try {
      return asTraffic(e, i);
    } catch (err) {
      // Whatever is malformed in an entry says which one, as a HarError (exit 2), never a TypeError.
      if (err instanceof HarError)
        throw new HarError(
          `${path}: ${err.message.startsWith("entry ") ? "" : `entry ${i}: `}${err.message}`,
        );
      throw new HarError(`${path}: entry ${i} is not a HAR entry (${(err as Error).message})`);
    }
  });
  return traffic.sort((a, b) => a.startedAt - b.startedAt);
}
