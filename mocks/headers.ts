import type { CorsPolicy } from "../src/spec/types.ts";
import type { RateDecision } from "./rate-limit.ts";

/** The CORS headers of x-cors that every answer carries, errors and 429 included. */
export function corsHeaders(cors: CorsPolicy): Record<string, string> {
  return {
    "access-control-allow-origin": cors.allow_origin,
    "access-control-expose-headers": cors.expose_headers.join(", "),
  };
}

/** The answer to a CORS preflight, as x-cors.preflight describes it. */
export function preflightHeaders(cors: CorsPolicy): Record<string, string> {
  return {
    "access-control-allow-origin": cors.allow_origin,
    "access-control-allow-methods": cors.preflight.allow_methods.join(", "),
    "access-control-allow-headers": cors.preflight.allow_headers.join(", "),
    "access-control-max-age": String(cors.preflight.max_age_seconds),
  };
}

/** RateLimit-* headers (x-rate-limit.headers) from one limiter decision. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(decision.resetSeconds),
  };
}

/**
 * Headers of Prism's answer the layer must not relay: its own CORS set (it adds
 * Allow-Credentials and a placeholder Expose-Headers), its schema-generated RateLimit-* values,
 * its violation report, and hop-by-hop headers the layer recomputes.
 */
export function isReplacedUpstreamHeader(name: string): boolean {
  const n = name.toLowerCase();
  return (
    n.startsWith("access-control-") ||
    n.startsWith("ratelimit-") ||
    n === "sl-violations" ||
    n === "content-length" ||
    n === "content-type" ||
    n === "connection" ||
    n === "keep-alive" ||
    n === "transfer-encoding" ||
    n === "date"
  );
}
