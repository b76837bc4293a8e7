import type { Check, CheckContext, Exchange, Finding } from "../types.ts";
import { noEvidence } from "../types.ts";
import { isServerError, routed } from "./guards.ts";

/** CORS headers are the cors check's; every other documented header is this one's. */
const CORS = /^access-control-/i;

/** The documented headers of the answer's status that are this check's. */
const headersOf = (ctx: CheckContext, exchange: Exchange) =>
  routed(exchange)
    ? Object.entries(
        ctx.spec.response(exchange.operation.operationId, exchange.status)?.headers ?? {},
      ).filter(([name]) => !CORS.test(name))
    : [];

/**
 * Documented headers are present when required (Retry-After on 429, and the x-rate-limit headers
 * on every response) and their values validate against their schemas.
 */
export const responseHeaders: Check = {
  name: "response-headers",
  title: "Missing or malformed response header",
  verifies:
    "Retry-After (on 429) and RateLimit-Limit/-Remaining/-Reset (on every response) are present and valid integers.",
  source: "components.headers; x-rate-limit.headers",
  severity: "medium",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status)) return null;
    const response = ctx.spec.response(exchange.operation.operationId, exchange.status);
    if (!response) return null;
    const always = new Set(ctx.spec.rateLimit.headers.map((h) => h.toLowerCase()));
    const findings: Finding[] = [];
    for (const [name, header] of headersOf(ctx, exchange)) {
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required || always.has(name.toLowerCase())) {
          findings.push({
            code: `response-headers/${name.toLowerCase()}`,
            title: `${exchange.status} answer lacks ${name}`,
            received: null,
            documented: `${name} (${JSON.stringify(header.schema)})`,
          });
        }
        continue;
      }
      const typed =
        header.schema.type === "integer" && /^-?[0-9]+$/.test(value.trim()) ? Number(value) : value;
      if (!ctx.spec.schemaValidator(header.schema)(typed)) {
        findings.push({
          code: `response-headers/${name.toLowerCase()}`,
          title: `${name} has an invalid value`,
          received: value,
          documented: header.schema,
        });
      }
    }
    return findings;
  },
  // An answer whose status documents no header of its own has nothing to lack.
  informative: (ctx, exchange) =>
    headersOf(ctx, exchange).length > 0 ? true : noEvidence("no header documented for the statuses answered"),
};
