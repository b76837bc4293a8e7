/**
 * Applicability guards shared by the checks. They also partition blame, so that one defect
 * fails one check: 5xx answers belong to no-server-errors alone, undocumented statuses to
 * status-code-documented, undocumented media types to content-type, 429 to the rate-limit checks,
 * answers that never came whole (timeouts, resets, oversized bodies) to answers-complete.
 */
import type { Spec } from "../../src/spec/spec.ts";
import type { Exchange } from "../types.ts";

/**
 * A GET the spec routes to an operation (not a preflight, not an unknown path) that got a whole
 * answer (a transport failure is answers-complete's alone).
 */
export function routed(
  exchange: Exchange,
): exchange is Exchange & Required<Pick<Exchange, "operation" | "parsed">> {
  return (
    exchange.request.method === "GET" &&
    exchange.operation !== undefined &&
    exchange.parsed !== undefined &&
    !exchange.failure
  );
}

export const isServerError = (status: number) => status >= 500;

/** The documented content entry for the exchange's status and media type, if any. */
export function documentedContent(spec: Spec, exchange: Exchange) {
  if (!routed(exchange) || !exchange.mediaType) return undefined;
  return spec.response(exchange.operation.operationId, exchange.status)?.content[exchange.mediaType];
}

/** The answer the rate limiter gave instead of the operation's own (the rate-limit checks judge it). */
export function rateLimited(spec: Spec, exchange: Exchange): boolean {
  return exchange.status === spec.rateLimit.status;
}
