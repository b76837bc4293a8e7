import { createServer, type ServerOptions } from "node:http";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { docsHtml } from "../src/docs/build.ts";
import { cacheControl } from "../src/http/caching.ts";
import { corsHeaders, preflightHeaders } from "../src/http/cors.ts";
import { allowHeader } from "../src/http/methods.ts";
import { PROBLEM_JSON, type Problem, problem, rateLimited } from "../src/http/problems.ts";
import type { Spec } from "../src/spec/spec.ts";
import { answersApi, apiResponder, DOCS_PATH, fastLaneFits, HEALTH_PATH } from "./http/api-responder.ts";
import { clientErrorHandler, connectHandler } from "./http/client-errors.ts";
import { clientIp, normalize } from "./http/client-ip.ts";
import type { Verifier } from "./http/dispatch.ts";
import { rateLimitHealth } from "./ratelimit/health.ts";
import { type RateLimiter, rateLimitHeaders } from "./ratelimit/limiter.ts";
import type { RouteContext } from "./routes/context.ts";
import { handlers } from "./routes/index.ts";

export interface AppParts {
  spec: Spec;
  context: RouteContext;
  verify: Verifier;
  /** Injectable clock, ms. */
  now: () => number;
  /** Absent: no limit and no RateLimit-* headers (benchmarks only). */
  limiter?: RateLimiter;
  trustedProxies: string[];
  logger: boolean;
}

/** Fastify's default keep-alive timeout, which a server from serverFactory must be given itself. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
type ServerTimeouts = { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };

/**
 * The HTTP shell around dispatch(): CORS on every response, the per-IP sliding-window limit
 * before anything else (OPTIONS uncounted), 405 for anything but GET/HEAD/OPTIONS, and problem+json
 * for every error, never a stack trace. One catch-all route: the spec is the router.
 */
export function createApp(parts: AppParts): FastifyInstance {
  const { spec, limiter } = parts;
  // Meta states the limit in force, as the headers do.
  const context = limiter ? { ...parts.context, rateLimit: limiter.policy } : parts.context;
  for (const op of spec.operations) {
    if (!handlers[op.operationId]) throw new Error(`the spec's ${op.operationId} has no handler`);
  }
  const cors = corsHeaders(spec.cors);
  const preflight = preflightHeaders(spec.cors);
  const allow = allowHeader(spec);
  const trusted = new Set(parts.trustedProxies.map(normalize));

  const sendProblem = (reply: FastifyReply, body: Problem) =>
    reply.code(body.status).type(PROBLEM_JSON).send(JSON.stringify(body));

  const refusing = { spec, cors, limiter, trusted, now: parts.now };
  // Every GET and HEAD of the API is answered by one function on Node's request and response.
  let logError: (err: unknown) => void = () => {};
  const respond = apiResponder({
    spec,
    context,
    verify: parts.verify,
    now: parts.now,
    limiter,
    trusted,
    cors,
    logError: (err) => logError(err),
  });
  // The fast lane: such requests skip Fastify (its routing, request and reply objects and hooks
  // cost about a third of a cached answer's time, bench/README.md). Only while requests are not
  // logged (Fastify writes the request log) and the app is not closing (Fastify answers 503).
  let closing = false;
  const fastLane = !parts.logger;
  const app = Fastify({
    logger: parts.logger
      ? {
          level: "info",
          redact: { paths: ['req.headers["x-api-key"]', "req.headers.authorization"], censor: "[redacted]" },
        }
      : false,
    serverFactory: (fastifyHandler, fastifyOptions) => {
      const options = fastifyOptions as ServerTimeouts & { http?: ServerOptions };
      const server = createServer(options.http ?? {}, (req, res) => {
        if (fastLane && !closing && fastLaneFits(req)) void respond(req, res, true);
        else fastifyHandler(req, res);
      });
      // What Fastify sets on a server it creates itself (lib/server.js).
      server.keepAliveTimeout = options.keepAliveTimeout ?? KEEP_ALIVE_TIMEOUT_MS;
      server.requestTimeout = options.requestTimeout ?? 0;
      server.setTimeout(options.connectionTimeout ?? 0);
      return server;
    },
    // Parameters are read from the raw URL by the spec library; bodies are never read.
    bodyLimit: 1024,
    return503OnClosing: true,
    // A request without Host reaches the hooks and gets the contract's 400, not Node's bare one.
    http: { requireHostHeader: false },
    // Requests the HTTP parser refuses get problem+json with CORS too (http/client-errors.ts).
    clientErrorHandler: clientErrorHandler(refusing),
    // A URL Fastify cannot route (a malformed escape) never reaches the hooks: count it here.
    frameworkErrors: (err, req, reply) => {
      reply.headers(cors);
      const unreadable = () =>
        problem(spec, "malformed-request", { detail: `The request URL could not be read: ${err.code}.` });
      if (!limiter) return void sendProblem(reply, unreadable());
      const ip = clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
      limiter.hit(ip, parts.now()).then(
        (decision) => {
          reply.headers(rateLimitHeaders(decision));
          const retry = Math.max(1, decision.resetSeconds);
          void sendProblem(reply, decision.allowed ? unreadable() : rateLimited(spec, retry, limiter.policy));
        },
        () => void sendProblem(reply, unreadable()),
      );
    },
  });
  logError = (err) => app.log.error({ err }, "request failed");
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  // CONNECT never reaches Fastify; without this Node drops the connection unanswered.
  app.server.on("connect", connectHandler(refusing));

  // The operation a URL routes to (undefined: no such path, or a malformed escape in it).
  const operationOf = (url: string) => {
    try {
      return spec.match(url.split("?")[0] ?? "")?.operation;
    } catch {
      return undefined;
    }
  };

  // Most answers are public: their Cache-Control is set up front; a personal stream's answer or a
  // 429 sets its own (x-caching).
  const publicCaching = cacheControl(spec, undefined, 200);

  app.addHook("onRequest", async (req, reply) => {
    // GET and HEAD of the API: the responder does all of it (catch-all route below).
    if (answersApi(req.raw)) return;
    reply.headers(cors);
    reply.header("Cache-Control", publicCaching);
    // Health checks are the operator's, not the API's: never counted, never refused.
    if ((req.method === "GET" || req.method === "HEAD") && req.url.split("?")[0] === HEALTH_PATH) return;
    const ip = clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
    const nowMs = parts.now();
    // Any OPTIONS, a preflight or not, is answered and never counted (x-methods.options).
    if (req.method === "OPTIONS") {
      if (limiter) reply.headers(rateLimitHeaders(await limiter.peek(ip, nowMs)));
      if (!operationOf(req.url)) return sendProblem(reply, problem(spec, "not-found"));
      return reply
        .code(spec.methods.options.status)
        .headers({ ...preflight, Allow: allow })
        .send();
    }
    if (limiter) {
      const decision = await limiter.hit(ip, nowMs);
      reply.headers(rateLimitHeaders(decision));
      if (!decision.allowed) {
        reply.header("Cache-Control", cacheControl(spec, operationOf(req.url), spec.rateLimit.status));
        return sendProblem(reply, rateLimited(spec, Math.max(1, decision.resetSeconds), limiter.policy));
      }
    }
    if (req.raw.httpVersion === "1.1" && req.headers.host === undefined) {
      // Refused before routing like the parser's refusals: the connection ends with it (x-request-gate.answered).
      reply.header("Connection", "close");
      return sendProblem(
        reply,
        problem(spec, "malformed-request", { detail: "HTTP/1.1 requires a Host header." }),
      );
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      reply.header("Allow", allow);
      return sendProblem(reply, problem(spec, "method-not-allowed"));
    }
  });

  // The instance's state for monitors (README "Rate-limit store"): 200 even when degraded, since
  // an instance limiting on its own memory still serves correctly; the error text stays in the log.
  app.get(HEALTH_PATH, async (_req, reply) => {
    const { status, rateLimit } = rateLimitHealth(limiter);
    const { lastError: _e, lastErrorAt: _at, ...store } = rateLimit;
    return reply.type("application/json; charset=utf-8").send(JSON.stringify({ status, rateLimit: store }));
  });

  // The API reference page (Redocly, built from the spec on first request, then cached). It
  // needs the dev dependencies; an install without them answers 404 with the way to build it.
  app.get(DOCS_PATH, async (_req, reply) => {
    try {
      return reply.type("text/html; charset=utf-8").send(await docsHtml());
    } catch {
      const detail = "The reference page is not built here: run npm run docs (needs dev dependencies).";
      return sendProblem(reply, problem(spec, "not-found", { detail }));
    }
  });

  // Reached by what the fast lane leaves to Fastify (app.inject, a percent-escaped path, a body).
  app.all("*", async (req, reply) => {
    reply.hijack();
    await respond(req.raw, reply.raw);
  });

  app.setNotFoundHandler((_req, reply) => sendProblem(reply.headers(cors), problem(spec, "not-found")));

  app.setErrorHandler((err, req, reply) => {
    reply.headers(cors);
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(
        reply,
        problem(spec, "malformed-request", { detail: "The request could not be read." }),
      );
    }
    req.log.error({ err }, "request failed");
    return sendProblem(reply, problem(spec, "internal"));
  });

  return app;
}
