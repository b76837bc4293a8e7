import { queryDecodingErrors } from "../../src/spec/request.ts";
import type { Check } from "../types.ts";
import { isServerError, rateLimited, routed } from "./guards.ts";

/**
 * A request with a parameter the spec calls invalid (out of range, not an integer, unknown enum
 * value, missing when required, given twice, too many words) is a 400 problem+json whose
 * `errors` names an offending parameter: never clamped silently, never served.
 */
export const invalidInputsRejected: Check = {
  name: "invalid-inputs-rejected",
  title: "Invalid request not rejected with a 400 naming the parameter",
  verifies:
    "Invalid parameters (0, max+1, non-integers, unknown act/cate, missing act, duplicates) get 400 problem+json naming the parameter.",
  source: 'info.description "Errors"; x-problem-types.invalid-parameter',
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status) || rateLimited(ctx.spec, exchange)) return null;
    const { operation, parsed } = exchange;
    if (parsed.errors.length === 0) return null;
    // A query that does not decode is query-decoding's to judge (one defect, one check).
    if (queryDecodingErrors(new URL(exchange.url).search.slice(1)).length > 0) return null;
    // Bad credentials are answered 401 before parameters are read (the credentials rules judge that).
    if (operation.secured && exchange.request.credentials !== "valid") return null;
    const offending = [...new Set(parsed.errors.map((e) => e.name))];
    const base = { code: "invalid-inputs-rejected", documented: { status: 400, names: offending } };
    if (exchange.status !== 400) {
      return [
        {
          ...base,
          title: `${operation.operationId} answered ${exchange.status} to an invalid request`,
          received: exchange.status,
        },
      ];
    }
    const body = exchange.body as { errors?: { name?: unknown }[] } | undefined;
    const named = Array.isArray(body?.errors) ? body.errors.map((e) => e?.name) : [];
    if (exchange.mediaType !== "application/problem+json" || !offending.some((n) => named.includes(n))) {
      return [
        {
          ...base,
          code: "invalid-inputs-rejected/names",
          title: `${operation.operationId} 400 does not name ${offending.join(", ")} in a problem+json errors list`,
          received: { contentType: exchange.mediaType, names: named },
        },
      ];
    }
    return [];
  },
  // Every invalid request it judges could have been served, or refused without naming the parameter.
  informative: () => true,
};
