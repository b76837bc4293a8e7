/**
 * Traffic the suite did not send (through `dealkit proxy`, from a HAR file, from a recorded run)
 * as the Exchange the checks read: the same `readExchange` the runner uses, after deciding
 * whether the exchange is the API's business at all and what its credentials were.
 */
import type { Spec } from "../../src/spec/spec.ts";
import type { RawResponse, TransportFailure } from "../http/client.ts";
import { readExchange } from "../runner/exchange.ts";
import type { Credentials, Exchange, RequestCase } from "../types.ts";

/** One request and its answer, as seen passing by. Header names lower-cased. */
export interface Traffic {
  method: string;
  /** The absolute URL the request went to (the upstream's, for the proxy). */
  url: string;
  requestHeaders: Record<string, string>;
  /** The client's address, when known: cross-answer rules pair one client's answers. */
  client?: string;
  /** 0 when no whole answer came (see `failure`). */
  status: number;
  responseHeaders: Record<string, string>;
  /** The body as text (content-encoding undone); undefined when it was not kept. */
  body?: string;
  /** Why the body was not kept (over the cap, undecodable): the exchange is then not judged. */
  bodyNotKept?: string;
  /** Unix seconds (fractional). */
  startedAt: number;
  receivedAt: number;
  failure?: TransportFailure;
  /** A request the suite wrote byte for byte (request-gate's): not what a client sends, never judged as traffic. */
  raw?: true;
}

/** Why a recorded raw request is not judged from a recording. */
export const RAW_REQUEST = "a raw request of request-gate (judged by dealkit conformance alone)";

/** An exchange the checks can read, or why it is not judged. */
export type Read = { exchange: Exchange } | { skipped: string };

/** Request headers a check or a reproduction needs; everything else (cookies, user agents...) stays out of reports. */
const KEPT_HEADERS = [
  "origin",
  "access-control-request-method",
  "access-control-request-headers",
  "x-forwarded-for",
  "prefer",
  // The codings the client offered: an answer compressed with another is a finding (x-compression).
  "accept-encoding",
];

/** What a report shows instead of a client's secret. */
export const REDACTED = "<redacted>";

/** The header an operation's key travels in (securitySchemes), lower-cased. */
export function keyHeader(spec: Spec): string {
  const schemes = (spec.doc as { components?: { securitySchemes?: Record<string, unknown> } }).components
    ?.securitySchemes;
  for (const s of Object.values(schemes ?? {})) {
    const scheme = s as { type?: string; in?: string; name?: string };
    if (scheme.type === "apiKey" && scheme.in === "header" && scheme.name) return scheme.name.toLowerCase();
  }
  return "x-api-key";
}

/**
 * Which credentials a request to a key-protected operation carried, as far as traffic tells: no
 * key is certainly invalid; a key answered 401 is taken as wrong, any other answer as valid (the
 * key itself is never read: a proxy does not know the accounts).
 */
function credentialsOf(spec: Spec, headers: Record<string, string>, status: number): Credentials {
  const key = headers[keyHeader(spec)];
  if (!key) return "invalid";
  return status === 401 ? "invalid" : "valid";
}

/** The path below the API's base path, or undefined when the URL is not under it. */
function apiPath(url: URL, basePath: string): string | undefined {
  const base = basePath.replace(/\/+$/, "");
  if (!base) return url.pathname;
  if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return undefined;
  return url.pathname.slice(base.length) || "/";
}

/** The operation a pathname routes to (a malformed percent-escape routes nowhere). */
function route(spec: Spec, pathname: string) {
  try {
    return spec.match(pathname);
  } catch {
    return undefined;
  }
}

/**
 * Reads traffic against the spec. Not judged: methods the API does not serve (only GET, HEAD and
 * OPTIONS are: x-methods), paths no operation routes (a HAR from devtools holds a whole page's
 * requests) except an OPTIONS below the API's own prefix (x-methods: a 404 there), bodies that were
 * not kept.
 */
const CONDITIONAL_HEADERS = [
  "if-none-match",
  "if-modified-since",
  "if-match",
  "if-unmodified-since",
  "if-range",
  "range",
];

export function readTraffic(spec: Spec, traffic: Traffic, basePath = ""): Read {
  let url: URL;
  try {
    url = new URL(traffic.url);
  } catch {
    return { skipped: "not a URL" };
  }
  if (traffic.raw) return { skipped: RAW_REQUEST };
  const method = traffic.method.toUpperCase();
  // Bucketed: the reason is client-controlled text, and each distinct reason is kept.
  if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS")
    return { skipped: `method ${/^[A-Z]{1,10}$/.test(method) ? method : "other"}` };
  // A cache in front may answer these 304 or 206: answers the spec does not describe, rightly.
  const conditional = CONDITIONAL_HEADERS.find((h) => traffic.requestHeaders[h] !== undefined);
  if (conditional) return { skipped: `a conditional or range request (${conditional})` };
  const pathname = apiPath(url, basePath);
  const match = pathname === undefined ? undefined : route(spec, pathname);
  if (pathname === undefined) return { skipped: "not an operation of the spec" };
  const ownPrefix = pathname.startsWith(`${spec.versioning.path_prefix}/`);
  if (!match && !(method === "OPTIONS" && ownPrefix)) return { skipped: "not an operation of the spec" };
  if (traffic.body === undefined && !traffic.failure)
    return { skipped: traffic.bodyNotKept ?? "body not recorded" };
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = traffic.requestHeaders[name];
    if (value !== undefined) headers[name] = value;
  }
  const op = match?.operation;
  if (traffic.requestHeaders[keyHeader(spec)] !== undefined) headers[keyHeader(spec)] = REDACTED;
  const request: RequestCase = {
    method,
    ...(op ? { operationId: op.operationId } : {}),
    pathname,
    query: [...url.searchParams],
    headers,
    ...(op?.secured && method === "GET"
      ? { credentials: credentialsOf(spec, traffic.requestHeaders, traffic.status) }
      : {}),
    label: "passive",
  };
  const raw: RawResponse = {
    url: traffic.url,
    status: traffic.status,
    headers: traffic.responseHeaders,
    text: traffic.body ?? "",
    sentAt: traffic.startedAt,
    receivedAt: traffic.receivedAt,
    ...(traffic.failure ? { failure: traffic.failure } : {}),
  };
  return { exchange: readExchange(spec, request, raw, traffic.client) };
}
