import type { CorsPolicy } from "../spec/types.ts";

/** Headers of x-cors carried by every response, errors and 429 included. */
export function corsHeaders(cors: CorsPolicy): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": cors.allow_origin,
    "Access-Control-Expose-Headers": cors.expose_headers.join(", "),
  };
}

/** The extra headers of a preflight answer (x-cors.preflight). */
export function preflightHeaders(cors: CorsPolicy): Record<string, string> {
  return {
    "Access-Control-Allow-Methods": cors.preflight.allow_methods.join(", "),
    "Access-Control-Allow-Headers": cors.preflight.allow_headers.join(", "),
    "Access-Control-Max-Age": String(cors.preflight.max_age_seconds),
  };
}
