import type { Check, CheckContext, Exchange } from "../types.ts";
import { noEvidence } from "../types.ts";
import { documentedContent, isServerError, routed } from "./guards.ts";

/** The validator of the answer's status and media type; undefined when the spec gives it no schema. */
const validatorOf = (ctx: CheckContext, exchange: Exchange) =>
  routed(exchange)
    ? ctx.spec.responseValidator(exchange.operation.operationId, exchange.status, exchange.mediaType ?? "")
    : undefined;

/** The body validates (ajv, JSON Schema 2020-12) against the schema of its status and media type. */
export const responseSchema: Check = {
  name: "response-schema",
  title: "Response body does not match its schema",
  verifies:
    "Every documented response body validates against its schema (ajv 2020-12), for every operation and status.",
  source: "paths.*.get.responses.*.content.*.schema",
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status) || !documentedContent(ctx.spec, exchange))
      return null;
    const validate = validatorOf(ctx, exchange);
    if (!validate || validate(exchange.body)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
    return [
      {
        code: "response-schema",
        title: `${exchange.operation.operationId} ${exchange.status} body breaks its schema: ${errors[0]}`,
        received: errors,
        documented: `schema of ${exchange.status} ${exchange.mediaType}`,
      },
    ];
  },
  // A body is evidence only when a schema was found for it: without one nothing could fail.
  informative: (ctx, exchange) => (validatorOf(ctx, exchange) ? true : noEvidence("no schema")),
};
