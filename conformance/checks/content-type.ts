import type { Check } from "../types.ts";
import { isServerError, routed } from "./guards.ts";

/** A documented status comes with one of the media types documented for it. */
export const contentType: Check = {
  name: "content-type",
  title: "Undocumented content type",
  verifies: "The Content-Type of every documented response is one documented for that status.",
  source: "paths.*.get.responses.*.content",
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status)) return null;
    const response = ctx.spec.response(exchange.operation.operationId, exchange.status);
    if (!response) return null;
    const documented = Object.keys(response.content);
    if (documented.length === 0 || (exchange.mediaType && documented.includes(exchange.mediaType))) return [];
    return [
      {
        code: "content-type",
        title: `${exchange.operation.operationId} ${exchange.status} has an undocumented content type`,
        received: exchange.headers["content-type"] ?? null,
        documented,
      },
    ];
  },
};
