import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { clientErrorHandler, connectHandler } from "../reference-server/http/client-errors.ts";
import { type Decision, RateLimiter, rateLimitHeaders } from "../reference-server/ratelimit/limiter.ts";
import { MemoryStore } from "../reference-server/ratelimit/memory.ts";
import { cacheControl } from "../src/http/caching.ts";
import { encodeBody } from "../src/http/compression.ts";
import { corsHeaders, preflightHeaders } from "../src/http/cors.ts";
import { credentialUid } from "../src/http/credentials.ts";
import { allowHeader } from "../src/http/methods.ts";
import {
  invalidParameters,
  type Problem,
  problem,
  rateLimited,
  refusedByRule,
} from "../src/http/problems.ts";
import { refusingRules } from "../src/rules/evaluate.ts";
import { type ParsedRequest, queryLengthError, readRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Operation } from "../src/spec/types.ts";
import { credentialsValid, DEFAULT_DEMO_ACCOUNT, type DemoAccount } from "./auth.ts";
import { asFirstAnswer, equalSource, withOwedItems } from "./cross-answers.ts";
import type { ShapeContext } from "./enforce.ts";
import { fixtureAnswerer } from "./fixtures/answer.ts";
import type { Fixtures } from "./fixtures/generate.ts";
import { readFixtures } from "./fixtures/store.ts";
import { shapeAnswer } from "./shape.ts";
import { isReplacedUpstreamHeader } from "./upstream-headers.ts";

export interface RuleLayerOptions {
  spec: Spec;
  /** Base URL of the Prism mock behind the layer. */
  upstream: string;
  /** The data valid requests are answered from (default: the checked-in fixture set). */
  fixtures?: Fixtures;
  account?: DemoAccount;
  /** Milliseconds since the epoch; injectable so rate-limit tests need no real waiting. */
  now?: () => number;
  /** `--variations`: the step from the layer's answer to the wire (variations.ts); default: encodeBody. */
  variations?: AnswerStage;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An answer as it goes on the wire: its body encoded. */
export type SentAnswer = Omit<Answer, "body"> & { body: Buffer };

/** Turns the request into what is sent; `layer` asks the rule layer (not asked: not counted). */
export type AnswerStage = (req: IncomingMessage, layer: () => Promise<Answer>) => Promise<SentAnswer>;

const PREFER_CODE = /(?:^|[\s,;])code=(\d{3})\b/;

/**
 * The rule layer: an HTTP front for Prism that does what a plain Prism mock cannot, all read
 * from the spec: parameter validation and refusing rules with our problem+json shapes, the
 * uniform 401 of the personal streams, valid requests answered from the fixture set by the
 * reference server's handlers (fixtures/answer.ts), CORS on every answer, and the per-IP
 * sliding-window limit. `Prefer: code=NNN` and `Prefer: example=NAME` still reach Prism, so
 * developers can force any documented answer (a named example is shaped by the rules); a forced
 * 429 is the layer's own, so its Retry-After and its detail agree.
 */
export function createRuleLayer(options: RuleLayerOptions): Server {
  const { spec, upstream } = options;
  const now = options.now ?? Date.now;
  const account = options.account ?? DEFAULT_DEMO_ACCOUNT;
  // The reference server's sliding-window limiter: one implementation of x-rate-limit.
  const limiter = new RateLimiter(new MemoryStore(), {
    limit: spec.rateLimit.limit,
    windowSeconds: spec.rateLimit.window_seconds,
  });
  const data = fixtureAnswerer(spec, options.fixtures ?? readFixtures(), account);

  async function answer(req: IncomingMessage): Promise<Answer> {
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const ip = req.socket.remoteAddress ?? "unknown";
    // Any OPTIONS, a preflight or not, is answered and never counted (x-methods.options).
    if (req.method === "OPTIONS")
      return optionsAnswer(spec, url.pathname, rateLimitHeaders(await limiter.peek(ip, now())));
    const forced = PREFER_CODE.exec(String(req.headers.prefer ?? ""))?.[1];
    // A forced 429 is a refused answer: it must not eat into the client's real budget.
    const rate = forced === "429" ? await limiter.peek(ip, now()) : await limiter.hit(ip, now());
    const route = spec.match(url.pathname);
    const operation = route?.operation;
    const withRate = (a: Answer): Answer => ({
      ...a,
      headers: {
        ...a.headers,
        ...rateLimitHeaders(rate),
        ...corsHeaders(spec.cors),
        "cache-control": cacheControl(spec, operation, a.status),
      },
    });
    if (!rate.allowed) return withRate(problemAnswer(rateLimited(spec, Math.max(1, rate.resetSeconds))));
    const noHost = missingHost(spec, req);
    if (noHost) return withRate(noHost);
    if (req.method !== "GET" && req.method !== "HEAD") {
      const refused = problemAnswer(problem(spec, "method-not-allowed"));
      return withRate({ ...refused, headers: { ...refused.headers, allow: allowHeader(spec) } });
    }
    // As the server: an over-long query string is refused before the path is even routed.
    const rawQuery = req.url?.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "";
    const tooLong = queryLengthError(spec, rawQuery);
    if (tooLong) return withRate(problemAnswer(invalidParameters(spec, [tooLong])));
    if (!route) return withRate(problemAnswer(problem(spec, "not-found")));
    if (forced === "429") return withRate(forcedRefusal(spec, rate));
    if (forced && !forced.startsWith("2")) return withRate(await relay(req, url.pathname + url.search));
    // The query as the client wrote it (rawQuery): the URL parser would re-encode what does not decode.
    return withRate(await serve(req, url, rawQuery, route.operation, route.pathParams));
  }

  async function serve(
    req: IncomingMessage,
    url: URL,
    rawQuery: string,
    operation: Operation,
    pathParams: Record<string, string>,
  ): Promise<Answer> {
    const apiKey = header(req, "x-api-key");
    const unauthorized = () => problemAnswer(problem(spec, "unauthorized"));
    // Credentials first, and one body for every failure: the answer must not reveal a uid.
    if (operation.secured && !credentialsValid(account, credentialUid(url.searchParams), apiKey)) {
      return unauthorized();
    }
    const parsed = readRequest(spec, operation, rawQuery, pathParams);
    // As the server: a refusing rule's problem lists the parameter errors too.
    const rule = refusingRules(spec, operation, parsed)[0];
    if (rule) return problemAnswer(refusedByRule(spec, rule, parsed.errors));
    if (parsed.errors.length > 0) return problemAnswer(invalidParameters(spec, parsed.errors));

    const ctx: ShapeContext = { spec, operation, request: parsed, now: Math.floor(now() / 1000) };
    const asked = header(req, "prefer");
    // Unless the caller names one of the spec's examples, the data is the fixtures' (Prism's
    // `dynamic=` bodies too: schema-faker text is what the fixtures replace).
    if (!/example=/.test(asked ?? "")) {
      // Prism still negotiates (Accept) and states the media type; its body is replaced.
      const path = canonicalPath(operation, url.pathname, parsed);
      const negotiated = await relay(req, path, asked);
      if (negotiated.status !== 200) {
        // 406 is negotiation; anything else is Prism disagreeing with the layer's validation.
        if (negotiated.status !== 406)
          console.warn(`mock rule layer: Prism answered ${negotiated.status} to ${path}`);
        return negotiated;
      }
      const baseUrl = `http://${req.headers.host ?? "127.0.0.1"}`;
      const fixture = data.answer({ operation, parsed, headers: req.headers, baseUrl, now: ctx.now });
      return { ...negotiated, status: fixture.status, body: fixture.body };
    }
    // An answer that must equal another operation's (the legacy rank file) is that answer.
    const source = equalSource(spec, operation, parsed);
    if (source) {
      const mirrored = new URL(source.path, url);
      const b = await serve(req, mirrored, mirrored.search.slice(1), source.operation, {});
      if (b.status !== 200) return b;
      const body = shapeAnswer(ctx, asFirstAnswer(source.relation, JSON.parse(b.body)));
      return { ...b, body: JSON.stringify(body) };
    }
    // The caller's own choice: the spec's named example, shaped by the rules.
    const path = canonicalPath(operation, url.pathname, parsed);
    const upstreamAnswer = await relay(req, path, asked);
    if (upstreamAnswer.status !== 200) {
      console.warn(
        `mock rule layer: Prism answered ${upstreamAnswer.status} to ${path}, which the layer accepted`,
      );
      return upstreamAnswer;
    }
    if (!upstreamAnswer.headers["content-type"]?.includes("json")) return upstreamAnswer;
    const answered = withOwedItems(spec, operation, parsed, ctx.now, JSON.parse(upstreamAnswer.body));
    const body = shapeAnswer(ctx, answered);
    return { ...upstreamAnswer, body: JSON.stringify(body) };
  }

  async function relay(req: IncomingMessage, pathAndQuery: string, prefer?: string): Promise<Answer> {
    const headers: Record<string, string> = { accept: header(req, "accept") ?? "*/*" };
    const apiKey = header(req, "x-api-key");
    if (apiKey !== undefined) headers["x-api-key"] = apiKey;
    const preferValue = prefer ?? header(req, "prefer");
    if (preferValue) headers.prefer = preferValue;
    const target = new URL(pathAndQuery, upstream);
    // One retry on a network error: a kept-alive socket Prism closed as it was reused fails the
    // GET without Prism having seen it (seen under --dynamic, where Prism's answers are slower).
    const res = await fetch(target, { headers }).catch(() => fetch(target, { headers }));
    const out: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!isReplacedUpstreamHeader(name)) out[name] = value;
    });
    out["content-type"] = withCharset(res.headers.get("content-type") ?? "application/json");
    return { status: res.status, headers: out, body: await res.text() };
  }

  const plain: AnswerStage = async (req, layer) => {
    const a = await layer();
    const encoded = await encodeBody(Buffer.from(a.body), header(req, "accept-encoding"), spec.compression);
    return { ...a, headers: { ...a.headers, ...encoded.headers }, body: encoded.body };
  };
  const stage = options.variations ?? plain;
  // Node would refuse a request without Host itself, with an empty 400: the layer answers it (missingHost).
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    stage(req, () => answer(req)).then(
      (a) => send(res, a),
      (err: Error) => {
        console.error(`mock rule layer: ${req.method} ${req.url}: ${err.message}`);
        const a = problemAnswer(problem(spec, "internal"));
        send(res, { ...a, headers: { ...a.headers, ...corsHeaders(spec.cors) } });
      },
    );
  });
  // What Node's parser refuses before any handler (a head over 16 KB, a broken header or request
  // line, CONNECT) gets the contract's problem as the reference server answers it (x-request-gate),
  // not Node's empty 400.
  const refusing = { spec, cors: corsHeaders(spec.cors), limiter, trusted: new Set<string>(), now };
  server.on("clientError", clientErrorHandler(refusing));
  server.on("connect", connectHandler(refusing));
  server.once("close", () => data.close());
  return server;
}

/** Any OPTIONS, a preflight or not: answered, never counted (x-methods.options), with the window's RateLimit-*. */
function optionsAnswer(spec: Spec, pathname: string, window: Record<string, string>): Answer {
  if (!spec.match(pathname)) {
    const notFound = problemAnswer(problem(spec, "not-found"));
    const headers = { ...notFound.headers, ...window, ...corsHeaders(spec.cors) };
    return { ...notFound, headers: { ...headers, "cache-control": cacheControl(spec, undefined, 404) } };
  }
  // The mock's own control header is allowed too: a page on another origin forces errors with it.
  const preflight = preflightHeaders(spec.cors);
  const allowHeaders = `${preflight["Access-Control-Allow-Headers"]}, Prefer`;
  const headers = {
    ...corsHeaders(spec.cors),
    ...preflight,
    "Access-Control-Allow-Headers": allowHeaders,
    ...window,
  };
  return {
    status: spec.methods.options.status,
    headers: { ...headers, allow: allowHeader(spec) },
    body: "",
  };
}

/** HTTP/1.1 without Host: refused before routing, as the parser's refusals are, and the connection ends with it (x-request-gate). */
function missingHost(spec: Spec, req: IncomingMessage): Answer | undefined {
  if (req.httpVersion !== "1.1" || req.headers.host !== undefined) return undefined;
  const refused = problemAnswer(
    problem(spec, "malformed-request", { detail: "HTTP/1.1 requires a Host header." }),
  );
  return { ...refused, headers: { ...refused.headers, connection: "close" } };
}

/**
 * The query Prism sees: only the operation's own parameters, as the typed values the layer
 * accepted (`limit=` is absent for us, an invalid integer for Prism; unknown extras are ignored
 * by the spec but could trip Prism's validator).
 */
function canonicalPath(operation: Operation, pathname: string, parsed: ParsedRequest): string {
  const query = new URLSearchParams();
  for (const p of operation.parameters) {
    if (p.in === "query" && parsed.raw[p.name] !== undefined)
      query.set(p.name, String(parsed.values[p.name]));
  }
  const qs = query.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/**
 * A 429 the client asked for: the layer's own, as a real one reads, its Retry-After and its detail
 * stating one value. Prism's example says 17 s in its body and 1 s in its header. The honest wait
 * is the schema's minimum while the client has requests left (nothing holds it back), else the
 * limiter's time until a slot frees.
 */
function forcedRefusal(spec: Spec, rate: Decision): Answer {
  const retryAfter = rate.remaining > 0 ? 1 : Math.max(1, rate.resetSeconds);
  const refused = problemAnswer(rateLimited(spec, retryAfter));
  return { ...refused, headers: { ...refused.headers, "Retry-After": String(retryAfter) } };
}

function problemAnswer(body: Problem): Answer {
  return {
    status: body.status,
    headers: { "content-type": "application/problem+json; charset=utf-8" },
    body: JSON.stringify(body),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function withCharset(mediaType: string): string {
  return /charset=/i.test(mediaType) ? mediaType : `${mediaType}; charset=utf-8`;
}

function send(res: ServerResponse, a: Omit<Answer, "body"> & { body: string | Buffer }): void {
  res.writeHead(a.status, { ...a.headers, "content-length": Buffer.byteLength(a.body) });
  res.end(a.body);
}
