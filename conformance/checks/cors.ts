import type { Check, Exchange, Finding, PlanContext, PlannedGroup } from "../types.ts";
import { isServerError, routed } from "./guards.ts";

const lowerList = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** Allow-Origin and the exposed headers on one answer (success, 4xx, 401 and 429 alike). */
function judgeHeaders(ctx: Parameters<NonNullable<Check["judge"]>>[0], exchange: Exchange): Finding[] {
  const { cors } = ctx.spec;
  const findings: Finding[] = [];
  const origin = exchange.headers["access-control-allow-origin"];
  if (origin !== cors.allow_origin) {
    findings.push({
      code: "cors/allow-origin",
      title: `${exchange.status} answer lacks Access-Control-Allow-Origin: ${cors.allow_origin}`,
      received: origin ?? null,
      documented: cors.allow_origin,
    });
  }
  const exposed = lowerList(exchange.headers["access-control-expose-headers"]);
  const missing = cors.expose_headers.filter((h) => !exposed.includes(h.toLowerCase()));
  if (missing.length > 0) {
    findings.push({
      code: "cors/expose-headers",
      title: `${exchange.status} answer does not expose ${missing.join(", ")}`,
      received: exchange.headers["access-control-expose-headers"] ?? null,
      documented: cors.expose_headers,
    });
  }
  return findings;
}

/** A preflight answer: the status, allowed methods, headers and Max-Age of x-cors. */
function judgePreflight(ctx: Parameters<NonNullable<Check["judge"]>>[0], exchange: Exchange): Finding[] {
  const { preflight: pf, allow_origin } = ctx.spec.cors;
  const h = exchange.headers;
  const problems: [string, unknown, unknown][] = [];
  if (exchange.status !== pf.status) problems.push(["status", exchange.status, pf.status]);
  if (h["access-control-allow-origin"] !== allow_origin)
    problems.push(["allow-origin", h["access-control-allow-origin"] ?? null, allow_origin]);
  const methods = lowerList(h["access-control-allow-methods"]);
  if (!pf.allow_methods.every((m) => methods.includes(m.toLowerCase())))
    problems.push(["allow-methods", h["access-control-allow-methods"] ?? null, pf.allow_methods]);
  const headers = lowerList(h["access-control-allow-headers"]);
  if (!pf.allow_headers.every((x) => headers.includes(x.toLowerCase())))
    problems.push(["allow-headers", h["access-control-allow-headers"] ?? null, pf.allow_headers]);
  if (Number(h["access-control-max-age"]) !== pf.max_age_seconds)
    problems.push(["max-age", h["access-control-max-age"] ?? null, pf.max_age_seconds]);
  return problems.map(([what, received, documented]) => ({
    code: `cors/preflight-${what}`,
    title: `preflight of ${exchange.request.pathname}: wrong ${what}`,
    received,
    documented,
  }));
}

/** One preflight per path: a preflight needs no valid parameters, any concrete path will do. */
function preflights(ctx: PlanContext): PlannedGroup[] {
  const { allow_headers } = ctx.spec.cors.preflight;
  const paths = new Set(
    ctx.spec.operations.map(
      (op) => ctx.validCases(op.operationId)[0]?.pathname ?? op.path.replace(/\{[^}]+\}/g, "x"),
    ),
  );
  const requests = [...paths].map((pathname) => ({
    method: "OPTIONS" as const,
    pathname,
    query: [],
    headers: {
      "access-control-request-method": "GET",
      "access-control-request-headers": allow_headers.join(", ").toLowerCase(),
    },
    label: "preflight",
  }));
  return [{ check: "cors", kind: "set", requests, label: "preflight of every path" }];
}

const isPreflight = (e: Exchange) =>
  e.request.method === "OPTIONS" && e.request.headers["access-control-request-method"] !== undefined;

/** Browsers may call every endpoint cross-origin, and read Retry-After and RateLimit-* too. */
export const cors: Check = {
  name: "cors",
  title: "CORS headers missing",
  verifies:
    "Allow-Origin * and the exposed Retry-After/RateLimit-* headers on success, 4xx, 401 and 429; preflight OPTIONS answers 204 with methods, headers and Max-Age.",
  source: "x-cors",
  severity: "medium",
  judge(ctx, exchange) {
    if (exchange.failure) return null;
    // A preflight of an unknown path gets the 404 GET gets there (x-methods; options-answered's).
    if (isPreflight(exchange))
      return ctx.spec.match(exchange.request.pathname) ? judgePreflight(ctx, exchange) : null;
    if (!routed(exchange) || isServerError(exchange.status)) return null;
    return judgeHeaders(ctx, exchange);
  },
  // A preflight answer could get any of its headers wrong, any other answer its Allow-Origin.
  informative: () => true,
  plan: preflights,
};
