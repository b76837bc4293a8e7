import { refusingRules } from "../../src/rules/evaluate.ts";
import type { Check } from "../types.ts";
import { isServerError, rateLimited, routed } from "./guards.ts";

/**
 * A request the spec calls valid (parseRequest finds no error, no x-conformance rule refuses
 * it, the key is good where one is needed) is answered 2xx.
 */
export const validInputsAccepted: Check = {
  name: "valid-inputs-accepted",
  title: "Valid request refused",
  verifies:
    "Requests valid per the parameter schemas (boundaries first: 1, 50, 51, max; then random) are answered 2xx.",
  source: "components.parameters (schema bounds, enums, defaults)",
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status) || rateLimited(ctx.spec, exchange)) return null;
    const { operation, parsed } = exchange;
    if (parsed.errors.length > 0) return null;
    if (operation.secured && exchange.request.credentials !== "valid") return null;
    if (refusingRules(ctx.spec, operation, parsed).length > 0) return null;
    if (exchange.status >= 200 && exchange.status < 300) return [];
    return [
      {
        code: "valid-inputs-accepted",
        title: `${operation.operationId} refused a valid request`,
        received: { status: exchange.status, body: exchange.text.slice(0, 300) },
        documented: "2xx",
      },
    ];
  },
  // Every valid request it judges could have been refused.
  informative: () => true,
};
