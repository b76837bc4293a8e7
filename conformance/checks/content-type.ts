import type { Check, CheckContext, Exchange } from "../types.ts";
import { noEvidence } from "../types.ts";
import { isServerError, routed } from "./guards.ts";

/** The media types documented for the answer's status (none for a status documented without a body). */
const documentedTypes = (ctx: CheckContext, exchange: Exchange & { operation: { operationId: string } }) =>
  Object.keys(ctx.spec.response(exchange.operation.operationId, exchange.status)?.content ?? {});

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
    const documented = documentedTypes(ctx, exchange);
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
  // An answer whose status documents no body has no content type to get wrong.
  informative: (ctx, exchange) =>
    routed(exchange) && documentedTypes(ctx, exchange).length > 0
      ? true
      : noEvidence("no content type documented for the statuses answered"),
};
