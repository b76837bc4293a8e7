/**
 * What Fastify answers itself, around the API responder: OPTIONS, the 405 of other methods, a URL
 * its router cannot read, a 404 and an unexpected error. Each keeps the contract the responder
 * keeps (CORS, the per-IP count, problem+json), so no answer of the server escapes it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { cacheControl } from "../../src/http/caching.ts";
import { preflightHeaders } from "../../src/http/cors.ts";
import { allowHeader } from "../../src/http/methods.ts";
import { PROBLEM_JSON, type Problem, problem, rateLimited } from "../../src/http/problems.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { rateLimitHeaders } from "../ratelimit/limiter.ts";
import { answersApi, HEALTH_PATH } from "./api-responder.ts";
import type { ClientErrorParts } from "./client-errors.ts";
import { clientIp } from "./client-ip.ts";

export const sendProblem = (reply: FastifyReply, body: Problem) =>
  reply.code(body.status).type(PROBLEM_JSON).send(JSON.stringify(body));

/** The operation a URL routes to (undefined: no such path, or a malformed escape in it). */
function operationOf(spec: Spec, url: string) {
  try {
    return spec.match(url.split("?")[0] ?? "")?.operation;
  } catch {
    return undefined;
  }
}

/**
 * The onRequest hook for what the responder does not answer: CORS and Cache-Control first, health
 * checks let through uncounted, OPTIONS answered uncounted, everything else counted (429 over the
 * limit), then the Host check and the 405 of a method other than GET and HEAD.
 */
export function otherRequests(parts: ClientErrorParts) {
  const { spec, cors, limiter, trusted } = parts;
  const preflight = preflightHeaders(spec.cors);
  const allow = allowHeader(spec);
  // Most answers are public: their Cache-Control is set up front; a personal stream's answer or a
  // 429 sets its own (x-caching).
  const publicCaching = cacheControl(spec, undefined, 200);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    // GET and HEAD of the API: the responder does all of it (app.ts's catch-all route).
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
      if (!operationOf(spec, req.url)) return sendProblem(reply, problem(spec, "not-found"));
      return reply
        .code(spec.methods.options.status)
        .headers({ ...preflight, Allow: allow })
        .send();
    }
    if (limiter) {
      const decision = await limiter.hit(ip, nowMs);
      reply.headers(rateLimitHeaders(decision));
      if (!decision.allowed) {
        reply.header("Cache-Control", cacheControl(spec, operationOf(spec, req.url), spec.rateLimit.status));
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
  };
}

/** A URL Fastify cannot route (a malformed escape) never reaches the hooks: it is counted here. */
export function unreadableUrls(
  parts: ClientErrorParts,
): NonNullable<FastifyServerOptions["frameworkErrors"]> {
  const { spec, cors, limiter, trusted } = parts;
  return (err, req, reply) => {
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
  };
}

/** A 404 and any error as problem+json with CORS, never a stack trace (a 4xx of Fastify's reads as a malformed request). */
export function problemsForErrors(app: FastifyInstance, { spec, cors }: ClientErrorParts): void {
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
}
