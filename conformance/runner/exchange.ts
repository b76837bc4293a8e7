import { queryLengthError, readRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { RawResponse } from "../http/client.ts";
import type { Exchange, RequestCase } from "../types.ts";

/** Reads a raw answer against the spec: which operation, what the request meant, the body (none when it failed). */
export function readExchange(
  spec: Spec,
  request: RequestCase,
  raw: RawResponse,
  localAddress?: string,
): Exchange {
  const mediaType = raw.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() || undefined;
  let body: unknown = raw.text;
  if (mediaType && /[/+]json$/.test(mediaType)) {
    try {
      body = JSON.parse(raw.text);
    } catch {
      body = raw.text;
    }
  }
  const exchange: Exchange = {
    request,
    url: raw.url,
    localAddress,
    status: raw.status,
    headers: raw.headers,
    mediaType,
    text: raw.text,
    body,
    sentAt: raw.sentAt,
    receivedAt: raw.receivedAt,
    ...(raw.failure ? { failure: raw.failure } : {}),
  };
  // A raw request (request-gate's) is its check's alone: routed, every check would judge its refusal.
  const match = request.method === "GET" && !request.wire ? spec.match(request.pathname) : undefined;
  if (match) {
    exchange.operation = match.operation;
    // Read as it went out (a raw query's `+` and `%zz` included), as the server must read it.
    const sent = new URL(raw.url).search.slice(1);
    exchange.parsed = readRequest(spec, match.operation, sent, match.pathParams);
    // The cap counts the query as it went out (x-query-string: as sent), before the parameters.
    const tooLong = queryLengthError(spec, sent);
    if (tooLong) exchange.parsed.errors.unshift(tooLong);
  }
  return exchange;
}

/** Bodies up to this size stay with their exchange; larger ones are dropped once judged. */
const KEEP_CHARACTERS = 64 * 1024;

/**
 * Drops a large body once every check has read it: a run keeps its exchanges to the end, and a
 * hostile target may send megabytes each (memory stays bounded by the cap per answer in flight).
 * Judgements are memoized per exchange, so nothing needs the body again.
 */
export function releaseBody(exchange: Exchange): void {
  if (exchange.text.length <= KEEP_CHARACTERS) return;
  exchange.text = `${exchange.text.slice(0, 1024)}… (${exchange.text.length} characters, dropped once judged)`;
  exchange.body = undefined;
}
