/**
 * One check per x-relations relation of the spec, named `relation:<id>`: two answers compared,
 * the first request A (a valid request the relation's `when` holds for, steered toward the
 * target's data) and B made from it by `vary`, sent back to back as A, B, A′ from one address.
 * When A′ differs from A the data moved meanwhile: the group goes once more, and a second move is
 * "inconclusive", never a failure. The relation itself is judged by the rule engine
 * (src/rules/relations.ts). A case counts as evidence only if a violation would have shown on it:
 * the first requests are chosen for that (relation-plan.ts), a second answer equal to its control's
 * (the second request at a neighbouring window, relation-windows.ts) is no evidence, and a case
 * that could not discriminate says why (relation-evidence.ts).
 */
import type { RuleExchange } from "../../src/rules/evaluate.ts";
import { get } from "../../src/rules/pointer.ts";
import { judgeRelation } from "../../src/rules/relations.ts";
import type { Relation } from "../../src/rules/types.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Check, CheckContext, Exchange, SentGroup, Verdict } from "../types.ts";
import { sameAsControl, whyNoEvidence } from "./relation-evidence.ts";
import { planRelation } from "./relation-plan.ts";
import { CONTROL } from "./relation-windows.ts";

/** What must not change between A and A′ for a comparison to stand: the items' identities and the total. */
function fingerprint(relation: Relation, e: Exchange): string {
  const items = get(e.body, relation.at ?? "/data");
  const keys = Array.isArray(items)
    ? items.map((i) => (i as Record<string, unknown>)?.[relation.key ?? "id"])
    : null;
  return JSON.stringify([e.status, keys, get(e.body, "/meta/total")]);
}

function ruleExchange(spec: Spec, op: Operation, e: Exchange): RuleExchange {
  return {
    operation: op,
    request: parseRequest(
      spec,
      op,
      new URLSearchParams(e.request.query),
      spec.match(e.request.pathname)?.pathParams,
    ),
    ...(e.request.credentials ? { credentials: e.request.credentials } : {}),
    status: e.status,
    ...(e.mediaType ? { mediaType: e.mediaType } : {}),
    body: e.body,
    sentAt: e.sentAt,
    receivedAt: e.receivedAt,
  };
}

/** The exchange of a group whose request the plan labelled `role` (second, control…), if sent. */
const sentAs = (exchanges: Exchange[], id: string, role: string) =>
  exchanges.find((e) => e.request.label.startsWith(`relation:${id} ${role}`));

function judge(ctx: CheckContext, op: Operation, relation: Relation, group: SentGroup): Verdict {
  const [a, ...rest] = group.exchanges;
  const again = rest.length > 0 ? rest.at(-1) : undefined;
  const middle = rest.slice(0, -1);
  const control = sentAs(middle, relation.id, CONTROL);
  // Paired from traffic (passive judging) the second carries the client's label, not the plan's.
  const b = sentAs(middle, relation.id, "second") ?? middle.find((e) => e !== control);
  const none = (why: string): Verdict => ({ findings: [], informative: false, inconclusive: why });
  const served = (e: Exchange | undefined): e is Exchange =>
    e !== undefined && !e.failure && e.status >= 200 && e.status < 300;
  const answered = (e: Exchange | undefined) =>
    e?.failure ? "without a whole answer" : String(e?.status ?? "nothing");
  if (!served(a)) return none(`the first request was answered ${answered(a)}`);
  if (!served(again)) return none("the first request, sent again, got no answer to compare");
  if (fingerprint(relation, again) !== fingerprint(relation, a))
    return { ...none("data changed: the first request, sent again, got other items"), moved: true };
  if (!b) return none("the first answer does not hold what the second request takes from it");
  // A refused or failed second request is another check's finding (valid-inputs-accepted, answers-complete...).
  if (!served(b)) return none(`the second request was answered ${answered(b)}`);
  const target = relation.to ? ctx.spec.operation(relation.to.operation) : op;
  const planned = group.planned.requests.some((r) =>
    r.label.startsWith(`relation:${relation.id} ${CONTROL}`),
  );
  if (planned && !served(control)) return none(`the control request was answered ${answered(control)}`);
  const same =
    control &&
    sameAsControl(relation, { exchange: a, operationId: op.operationId }, target.operationId, b, control);
  if (same) return none(same);
  const first = ruleExchange(ctx.spec, op, a);
  const second = ruleExchange(ctx.spec, target, b);
  const verdict = judgeRelation(ctx.spec, relation, first, second);
  return {
    informative: verdict.informative,
    ...(verdict.informative || verdict.failures.length > 0
      ? {}
      : {
          inconclusive: whyNoEvidence(
            relation,
            ctx.spec,
            { rule: first, exchange: a },
            { rule: second, exchange: b },
          ),
        }),
    findings: verdict.failures.map((f) => ({
      exchange: b,
      finding: {
        code: `relation:${relation.id}`,
        rule: relation.id,
        title: `${relation.summary} ${f.message} (first: ${a.url})`,
        received: f.received ?? null,
        documented: f.documented ?? relation.summary,
      },
    })),
  };
}

export function relationCheck(op: Operation, relation: Relation): Check {
  return {
    name: `relation:${relation.id}`,
    title: relation.summary,
    verifies: relation.summary,
    source: `x-relations ${op.operationId} (${relation.source})`,
    severity: "high",
    operationId: op.operationId,
    needsAccount: op.secured,
    plan: (ctx) => planRelation(ctx, op, relation),
    judgeGroup: (ctx, group) => judge(ctx, op, relation, group),
  };
}

export function relationChecks(spec: Spec): Check[] {
  return spec.relations().map(({ operation, relation }) => relationCheck(operation, relation));
}
