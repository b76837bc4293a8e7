import type { Check } from "../types.ts";
import { isServerError, routed } from "./guards.ts";

/** Every answer's status is one the operation documents (5xx are no-server-errors' business). */
export const statusCodeDocumented: Check = {
  name: "status-code-documented",
  title: "Undocumented status code",
  verifies: "Every response status is documented for its operation (exact code, range or default).",
  source: "paths.*.get.responses",
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status)) return null;
    const op = exchange.operation;
    if (ctx.spec.response(op.operationId, exchange.status)) return [];
    return [
      {
        code: "status-code-documented",
        title: `${op.operationId} answered an undocumented status`,
        received: exchange.status,
        documented: Object.keys(op.responses),
      },
    ];
  },
  // Every answer it judges has a status, which could have been one the operation does not document.
  informative: () => true,
};
