import { checkRule, conditionHolds, type RuleExchange } from "../../src/rules/evaluate.ts";
import { ruleInformative } from "../../src/rules/evidence.ts";
import type { Rule } from "../../src/rules/types.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { judgeIgnores, planIgnores } from "../rules/ignores.ts";
import { judgeUniformBody, planUniformBody } from "../rules/uniform-body.ts";
import type { Check, CheckContext, Exchange } from "../types.ts";
import { documentedContent, isServerError, rateLimited, routed } from "./guards.ts";

/**
 * The exchange as the rule engine reads it, when the rule is this exchange's business: an answer
 * of the rule's operation, documented, to a valid request, or to any request for a refusing rule
 * (its type wins over a parameter error's: info.description "Order of checks", so
 * `search?page=0` is missing-search-criterion; naming the parameter is invalid-inputs-rejected's).
 * Undocumented statuses and media types are status-code-documented's and content-type's findings;
 * checkRule itself skips served-answer rules on requests a refusing rule refuses.
 */
function ruleExchange(ctx: CheckContext, op: Operation, rule: Rule, exchange: Exchange): RuleExchange | null {
  if (!routed(exchange) || exchange.operation.operationId !== op.operationId) return null;
  if (isServerError(exchange.status) || rateLimited(ctx.spec, exchange)) return null;
  const response = ctx.spec.response(op.operationId, exchange.status);
  if (!response) return null;
  if (Object.keys(response.content).length > 0 && !documentedContent(ctx.spec, exchange)) return null;
  const about400 = rule.then.status !== undefined && rule.then.status >= 400;
  if (!about400 && exchange.parsed.errors.length > 0) return null;
  const credentials = exchange.request.credentials;
  if (op.secured && credentials !== "valid" && rule.when?.credentials === undefined) return null;
  if (!conditionHolds(ctx.spec, op, rule.when, exchange.parsed, credentials)) return null;
  return {
    operation: op,
    request: exchange.parsed,
    ...(credentials ? { credentials } : {}),
    status: exchange.status,
    ...(exchange.mediaType ? { mediaType: exchange.mediaType } : {}),
    body: exchange.body,
    sentAt: exchange.sentAt,
    receivedAt: exchange.receivedAt,
  };
}

/**
 * One check per x-conformance rule of the spec, named `rule:<id>`: the rules are read from the
 * document, never re-typed here. Single-exchange expectations go through the rule engine
 * (checkRule) on every exchange of the rule's operation whose `when` holds; `ignores` and
 * `uniformBody` need several requests, planned and judged as a group.
 */
export function ruleCheck(op: Operation, rule: Rule): Check {
  const about400 = rule.then.status !== undefined && rule.then.status >= 400;
  const grouped = rule.then.ignores
    ? { plan: planIgnores, judge: judgeIgnores }
    : rule.then.uniformBody
      ? { plan: planUniformBody, judge: judgeUniformBody }
      : undefined;
  return {
    name: `rule:${rule.id}`,
    title: rule.summary,
    verifies: rule.summary,
    source: `x-conformance ${op.operationId} (${rule.source})`,
    severity: about400 ? "medium" : "high",
    operationId: op.operationId,
    // Served answers need the account. Refusals do not: an identical 401 body is judged without one,
    // its part about a uid known to exist named as not judged (rules/uniform-body.ts).
    needsAccount: op.secured && rule.when?.credentials !== "invalid",
    judge(ctx, exchange) {
      const seen = ruleExchange(ctx, op, rule, exchange);
      if (!seen) return null;
      return checkRule(ctx.spec, rule, seen).map((f) => ({
        code: `rule:${rule.id}`,
        rule: rule.id,
        title: `${rule.summary} ${f.message}${f.pointer ? ` at ${f.pointer}` : ""}`,
        received: f.received ?? null,
        documented: f.documented ?? rule.summary,
      }));
    },
    informative(ctx, exchange) {
      const seen = ruleExchange(ctx, op, rule, exchange);
      // A grouped rule's evidence is its group's; the single answers only judge its status.
      return seen !== null && !grouped && ruleInformative(ctx.spec, rule, seen);
    },
    ...(grouped
      ? {
          plan: (ctx) => grouped.plan(ctx, op, rule),
          judgeGroup: (ctx, group) => grouped.judge(ctx, rule, group),
        }
      : {}),
  };
}

export function ruleChecks(spec: Spec): Check[] {
  return spec.rules().map(({ operation, rule }) => ruleCheck(operation, rule));
}
