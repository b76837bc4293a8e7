import { createServer, type ServerOptions } from "node:http";
import Fastify, { type FastifyInstance, type FastifyServerFactory } from "fastify";
import { docsHtml } from "../src/docs/build.ts";
import { corsHeaders } from "../src/http/cors.ts";
import { problem } from "../src/http/problems.ts";
import type { Spec } from "../src/spec/spec.ts";
import {
  type ApiResponder,
  apiResponder,
  DOCS_PATH,
  fastLaneFits,
  HEALTH_PATH,
} from "./http/api-responder.ts";
import { type ClientErrorParts, clientErrorHandler, connectHandler } from "./http/client-errors.ts";
import { normalize } from "./http/client-ip.ts";
import type { Verifier } from "./http/dispatch.ts";
import { otherRequests, problemsForErrors, sendProblem, unreadableUrls } from "./http/fastify-answers.ts";
import { rateLimitHealth } from "./ratelimit/health.ts";
import type { RateLimiter } from "./ratelimit/limiter.ts";
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
  requireEveryHandler(parts.spec);
  const shell = shellParts(parts);
  // Set once the app exists: the responder is built before it, and logs through it.
  const lane = { closing: false, logError: (_err: unknown) => {} };
  const respond = apiResponder({
    ...shell,
    // Meta states the limit in force, as the headers do.
    context: parts.limiter ? { ...parts.context, rateLimit: parts.limiter.policy } : parts.context,
    verify: parts.verify,
    logError: (err) => lane.logError(err),
  });
  // The fast lane only while requests are not logged (Fastify writes the request log) and the app
  // is not closing (Fastify answers 503).
  const app = Fastify({
    logger: requestLog(parts.logger),
    serverFactory: fastLaneServer(respond, () => !parts.logger && !lane.closing),
    // Parameters are read from the raw URL by the spec library; bodies are never read.
    bodyLimit: 1024,
    return503OnClosing: true,
    // A request without Host reaches the hooks and gets the contract's 400, not Node's bare one.
    http: { requireHostHeader: false },
    // Requests the HTTP parser refuses get problem+json with CORS too (http/client-errors.ts).
    clientErrorHandler: clientErrorHandler(shell),
    frameworkErrors: unreadableUrls(shell),
  });
  lane.logError = (err) => app.log.error({ err }, "request failed");
  app.addHook("preClose", (done) => {
    lane.closing = true;
    done();
  });
  // CONNECT never reaches Fastify; without this Node drops the connection unanswered.
  app.server.on("connect", connectHandler(shell));
  app.addHook("onRequest", otherRequests(shell));
  operatorRoutes(app, shell);
  // Reached by what the fast lane leaves to Fastify (app.inject, a percent-escaped path, a body).
  app.all("*", async (req, reply) => {
    reply.hijack();
    await respond(req.raw, reply.raw);
  });
  problemsForErrors(app, shell);
  return app;
}

function requireEveryHandler(spec: Spec): void {
  for (const op of spec.operations) {
    if (!handlers[op.operationId]) throw new Error(`the spec's ${op.operationId} has no handler`);
  }
}

/** What every part of the shell shares: the spec, CORS headers, the limiter and whom to trust for X-Forwarded-For. */
function shellParts(parts: AppParts): ClientErrorParts {
  const trusted = new Set(parts.trustedProxies.map(normalize));
  return {
    spec: parts.spec,
    cors: corsHeaders(parts.spec.cors),
    limiter: parts.limiter,
    trusted,
    now: parts.now,
  };
}

function requestLog(logged: boolean) {
  if (!logged) return false;
  return {
    level: "info",
    redact: { paths: ['req.headers["x-api-key"]', "req.headers.authorization"], censor: "[redacted]" },
  };
}

/**
 * The server Fastify listens with, with the fast lane in front: a request that fits skips Fastify
 * (its routing, request and reply objects and hooks cost about a third of a cached answer's time,
 * bench/README.md) and goes straight to the responder.
 */
function fastLaneServer(respond: ApiResponder, laneOpen: () => boolean): FastifyServerFactory {
  return (fastifyHandler, fastifyOptions) => {
    const options = fastifyOptions as ServerTimeouts & { http?: ServerOptions };
    const server = createServer(options.http ?? {}, (req, res) => {
      if (laneOpen() && fastLaneFits(req)) void respond(req, res, true);
      else fastifyHandler(req, res);
    });
    // What Fastify sets on a server it creates itself (lib/server.js).
    server.keepAliveTimeout = options.keepAliveTimeout ?? KEEP_ALIVE_TIMEOUT_MS;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    return server;
  };
}

/** The operator's routes, outside the API: the health check and the reference page. */
function operatorRoutes(app: FastifyInstance, { spec, limiter }: ClientErrorParts): void {
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
}
