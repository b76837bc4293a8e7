import { checkRule, conditionHolds } from "../../src/rules/evaluate.ts";
import type { Condition, Rule } from "../../src/rules/types.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { probeIgnores } from "../rules/ignores.ts";
import { probeUniformBody } from "../rules/uniform-body.ts";
import type { Check, ProbeContext } from "../types.ts";
import { documentedContent, isServerError, rateLimited, routed } from "./guards.ts";

/** The parameters a rule's condition talks about (all anyOf branches). */
function conditionParams(rule: Rule): Set<string> {
  const names = new Set<string>();
  const walk = (c: Condition | undefined) => {
    for (const k of Object.keys(c?.query ?? {})) names.add(k);
    for (const b of c?.anyOf ?? []) walk(b);
  };
  walk(rule.when);
  return names;
}

/**
 * One check per x-conformance rule of the spec, named `rule:<id>`: the rules are read from the
 * document, never re-typed here. Single-exchange expectations go through the rule engine
 * (checkRule) on every exchange of the rule's operation whose `when` holds; `ignores` and
 * `uniformBody` need several requests and are probed.
 */
export function ruleCheck(op: Operation, rule: Rule): Check {
  const about400 = rule.then.status !== undefined && rule.then.status >= 400;
  const probe = rule.then.ignores
    ? (ctx: ProbeContext) => probeIgnores(ctx, op, rule)
    : rule.then.uniformBody
      ? (ctx: ProbeContext) => probeUniformBody(ctx, op, rule)
      : undefined;
  return {
    name: `rule:${rule.id}`,
    title: rule.summary,
    verifies: rule.summary,
    source: `x-conformance ${op.operationId} (${rule.source})`,
    severity: about400 ? "medium" : "high",
    judge(ctx, exchange) {
      if (!routed(exchange) || exchange.operation.operationId !== op.operationId) return null;
      if (isServerError(exchange.status) || rateLimited(ctx.spec, exchange)) return null;
      // Undocumented statuses and media types are status-code-documented's and content-type's findings.
      const response = ctx.spec.response(op.operationId, exchange.status);
      if (!response) return null;
      if (Object.keys(response.content).length > 0 && !documentedContent(ctx.spec, exchange)) return null;
      // An invalid request is invalid-inputs-rejected's business, unless the rule is about refusing
      // exactly the parameters that are missing (a missing act). Two faults at once may be answered
      // either way. (checkRule itself skips served-answer rules on requests a refusing rule refuses.)
      const named = conditionParams(rule);
      const sent = new Set(exchange.request.query.map(([k]) => k));
      if (exchange.parsed.errors.some((e) => !about400 || !named.has(e.name) || sent.has(e.name)))
        return null;
      const credentials = exchange.request.credentials;
      if (op.secured && credentials !== "valid" && rule.when?.credentials === undefined) return null;
      if (!conditionHolds(ctx.spec, op, rule.when, exchange.parsed, credentials)) return null;
      const failures = checkRule(ctx.spec, rule, {
        operation: op,
        request: exchange.parsed,
        ...(credentials ? { credentials } : {}),
        status: exchange.status,
        ...(exchange.mediaType ? { mediaType: exchange.mediaType } : {}),
        body: exchange.body,
        sentAt: exchange.sentAt,
        receivedAt: exchange.receivedAt,
      });
      return failures.map((f) => ({
        code: `rule:${rule.id}`,
        rule: rule.id,
        title: `${rule.summary} ${f.message}${f.pointer ? ` at ${f.pointer}` : ""}`,
        received: f.received ?? null,
        documented: f.documented ?? rule.summary,
      }));
    },
    ...(probe ? { probe } : {}),
  };
}

export function ruleChecks(spec: Spec): Check[] {
  return spec.rules().map(({ operation, rule }) => ruleCheck(operation, rule));
}
