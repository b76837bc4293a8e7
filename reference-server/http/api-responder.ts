import type { IncomingMessage, ServerResponse } from "node:http";
import { cacheControl } from "../../src/http/caching.ts";
import { encodeBody } from "../../src/http/compression.ts";
import { problem, rateLimited } from "../../src/http/problems.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Store } from "../db/store.ts";
import type { Decision, RateLimiter } from "../ratelimit/limiter.ts";
import type { RouteContext } from "../routes/context.ts";
import { AnswerCache } from "./answer-cache.ts";
import {
  CONTENT_TYPE,
  type HeaderLines,
  type Prepared,
  prepareAnswer,
  send,
  sendAsIs,
  sendProblem,
} from "./answer-writing.ts";
import { clientIp } from "./client-ip.ts";
import { dispatch, type Verifier } from "./dispatch.ts";
import { oneByte } from "./one-byte.ts";

export const HEALTH_PATH = "/healthz";
export const DOCS_PATH = "/docs";
const HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;
/** Distinct public requests kept per second and data state (AnswerCache). */
const ANSWER_CACHE_ENTRIES = 512;
// Header names written on every allowed or refused answer, one-byte (one-byte.ts: the literals alone are not).
const RATELIMIT_LIMIT = oneByte("RateLimit-Limit");
const RATELIMIT_REMAINING = oneByte("RateLimit-Remaining");
const RATELIMIT_RESET = oneByte("RateLimit-Reset");

export interface ResponderParts {
  spec: Spec;
  context: RouteContext & { store: Pick<Store, "changeStamp" | "servingStamp"> };
  verify: Verifier;
  now: () => number;
  limiter?: RateLimiter;
  trusted: ReadonlySet<string>;
  cors: Record<string, string>;
  /** Where an unexpected failure is reported (the answer is a problem+json 500 either way). */
  logError: (err: unknown) => void;
}

/**
 * Answers one request. `fromSocket`: the request was read from its socket (the fast lane), so the
 * data state is the one for serving (Store.servingStamp), not read again for every request.
 */
export type ApiResponder = (req: IncomingMessage, res: ServerResponse, fromSocket?: boolean) => Promise<void>;

/** Answers a request whose count the limiter has decided (none without a limiter). */
type Respond = (
  req: IncomingMessage,
  res: ServerResponse,
  decision: Decision | undefined,
  fromSocket: boolean,
) => void | Promise<void>;

/** The same, its failures answered as a 500 problem: always a promise, settled at once when nothing awaits. */
type Answered = (...args: Parameters<Respond>) => Promise<void>;

type Failed = (req: IncomingMessage, res: ServerResponse, err: unknown) => void;

const DONE = Promise.resolve();

const pathOf = (url: string) => {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
};

/** Whether the API responder answers this request: a GET or HEAD of anything but /healthz and /docs. */
export function answersApi(req: IncomingMessage): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = pathOf(req.url ?? "");
  return path !== HEALTH_PATH && path !== DOCS_PATH;
}

/**
 * Whether a request can skip Fastify entirely (app.ts's fast lane): no body (Fastify would read
 * and bound it) and no percent-escape in the path (Fastify's router refuses a malformed one with
 * its own 400). Everything else reaches the same responder through Fastify.
 */
export function fastLaneFits(req: IncomingMessage): boolean {
  if (!answersApi(req)) return false;
  const length = req.headers["content-length"];
  if ((length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined)
    return false;
  return !pathOf(req.url ?? "").includes("%");
}

/**
 * Every GET and HEAD of the API, on Node's own request and response: CORS and Cache-Control, the
 * per-IP limit (counted first, refused with 429), the Host check, dispatch() and the body's
 * encoding, with all headers written at once. The same function serves the fast lane and
 * Fastify's catch-all route (app.inject in the tests), so both answer byte for byte alike.
 *
 * A cached answer is the common case under load and costs what bare node:http costs plus a few
 * µs (bench/README.md, finding 10): headers go to writeHead as one flat array (name, value, ...)
 * starting from a block built once, the answer cache is reached without building a key string,
 * the header lines after the rate-limit ones are built once per kept answer, and the fast lane
 * reads the data state only when it may have changed (`fromSocket`, Store.servingStamp).
 */
export function apiResponder(parts: ResponderParts): ApiResponder {
  const respond = answerResponder(parts);
  const failed: Failed = (req, res, err) => {
    parts.logError(err);
    if (res.headersSent) return void res.destroy();
    sendProblem(req, res, Object.entries(parts.cors).flat(), problem(parts.spec, "internal"));
  };
  const answered: Answered = (req, res, decision, fromSocket) => {
    try {
      const pending = respond(req, res, decision, fromSocket);
      return pending ? pending.catch((err) => failed(req, res, err)) : DONE;
    } catch (err) {
      failed(req, res, err);
      return DONE;
    }
  };
  return countedFirst(parts, answered, failed);
}

/** The per-IP limit counts every request before it is answered; without a limiter nothing is counted. */
function countedFirst(parts: ResponderParts, answered: Answered, failed: Failed): ApiResponder {
  const { limiter, trusted } = parts;
  return (req, res, fromSocket = false) => {
    if (!limiter) return answered(req, res, undefined, fromSocket);
    try {
      const ip = clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
      const nowMs = parts.now();
      // In-process stores count at once; a shared one (Redis) is awaited.
      const decision = limiter.hitNow(ip, nowMs);
      if (decision) return answered(req, res, decision, fromSocket);
      return limiter.hit(ip, nowMs).then(
        (d) => answered(req, res, d, fromSocket),
        (err) => failed(req, res, err),
      );
    } catch (err) {
      failed(req, res, err);
      return DONE;
    }
  };
}

/**
 * The answer after the count: the rate-limit lines (or the 429), the Host check, the kept or
 * dispatched answer, its encoding. Synchronous unless the body is compressed: a cached answer
 * costs no promise.
 */
function answerResponder(parts: ResponderParts): Respond {
  const { spec, limiter } = parts;
  // CORS, then Cache-Control (its value at CACHING): the lines every answer starts with.
  const leading: HeaderLines = [
    ...Object.entries(parts.cors).flat(),
    "Cache-Control",
    cacheControl(spec, undefined, 200),
  ].map(oneByte);
  const CACHING = leading.length - 1;
  // The limit is the policy's on every decision: its text is built once.
  const limitText = limiter ? String(limiter.policy.limit) : "";
  // The compression policy's names go out as header values (Content-Encoding, Vary).
  const compression = {
    codings: spec.compression.codings.map(oneByte),
    vary: oneByte(spec.compression.vary),
  };
  const answerOf = keptOrDispatched(parts, compression.vary);
  return (req, res, decision, fromSocket) => {
    const url = req.url ?? "/";
    const headers = leading.slice();
    if (decision) {
      headers.push(RATELIMIT_LIMIT, limitText, RATELIMIT_REMAINING, String(decision.remaining));
      headers.push(RATELIMIT_RESET, String(decision.resetSeconds));
      if (!decision.allowed) {
        // Delta-seconds, never 0: the real time until the oldest counted request leaves the window.
        const retry = Math.max(1, decision.resetSeconds);
        headers.push("Retry-After", String(retry));
        headers[CACHING] = cacheControl(spec, operationOf(spec, url), spec.rateLimit.status);
        return sendProblem(req, res, headers, rateLimited(spec, retry, (limiter as RateLimiter).policy));
      }
    }
    if (req.httpVersion === "1.1" && req.headers.host === undefined) {
      const detail = "HTTP/1.1 requires a Host header.";
      // Refused before routing like the parser's refusals: the connection ends with it (x-request-gate.answered).
      headers.push("Connection", "close");
      return sendProblem(req, res, headers, problem(spec, "malformed-request", { detail }));
    }
    const answer = answerOf(req, url, fromSocket);
    if (answer.operation?.secured) headers[CACHING] = cacheControl(spec, answer.operation, answer.status);
    const accept = req.headers["accept-encoding"];
    if (!accept) {
      const tail = answer.plainTail;
      for (let i = 0; i < tail.length; i++) headers.push(tail[i] as string);
      return sendAsIs(req, res, answer.status, headers, answer.body);
    }
    headers.push(CONTENT_TYPE, answer.contentType);
    return encodeBody(answer.body, accept, compression).then((encoded) => {
      for (const [name, value] of Object.entries(encoded.headers)) headers.push(name, value);
      send(req, res, answer.status, headers, encoded.body);
    });
  };
}

function operationOf(spec: Spec, url: string) {
  try {
    return spec.match(pathOf(url))?.operation;
  } catch {
    return undefined;
  }
}

/**
 * The answer to a URL from the answer cache (kept per base URL, second and data state), or
 * dispatched and prepared once, then kept. The fast lane reads the data state only when it may
 * have changed (`fromSocket`, Store.servingStamp).
 */
function keptOrDispatched(parts: ResponderParts, vary: string) {
  const answers = new AnswerCache(ANSWER_CACHE_ENTRIES);
  const store = parts.context.store;
  const baseUrlOf = selfLinkBase();
  return (req: IncomingMessage, url: string, fromSocket: boolean): Prepared => {
    const baseUrl = baseUrlOf(req);
    const stamp = fromSocket ? store.servingStamp() : store.changeStamp();
    const kept = answers.lookup(baseUrl, url, parts.context.nowSeconds(), stamp);
    if (kept) return kept as Prepared;
    const answer = prepareAnswer(dispatch(parts.context, parts.verify, url, req.headers, baseUrl), vary);
    answers.keep(baseUrl, url, answer);
    return answer;
  };
}

/**
 * The base URL of self links, from the Host header (a malformed one reads as localhost) and the
 * scheme; the last one is kept, as one client's requests all carry the same Host.
 */
function selfLinkBase(): (req: IncomingMessage) => string {
  let lastHost: string | undefined;
  let lastEncrypted = false;
  let lastBase = "http://localhost";
  return (req) => {
    const host = req.headers.host;
    const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
    if (host !== lastHost || encrypted !== lastEncrypted || host === undefined) {
      const valid = typeof host === "string" && HOST.test(host) ? host : "localhost";
      lastBase = `${encrypted ? "https" : "http"}://${valid}`;
      lastHost = host;
      lastEncrypted = encrypted;
    }
    return lastBase;
  };
}
