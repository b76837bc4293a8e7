/**
 * One check per x-relations relation of the spec, named `relation:<id>`: two answers compared,
 * the first request A (a valid request the relation's `when` holds for, steered toward the
 * target's data) and B made from it by `vary`, sent back to back as A, B, A′ from one address.
 * When A′ differs from A the data moved meanwhile: the group goes once more, and a second move is
 * "inconclusive", never a failure. The relation itself is judged by the rule engine
 * (src/rules/relations.ts).
 */
import { conditionHolds, type RuleExchange } from "../../src/rules/evaluate.ts";
import { get } from "../../src/rules/pointer.ts";
import { itemsAt, judgeRelation } from "../../src/rules/relations.ts";
import type { Relation } from "../../src/rules/types.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { varyRequest } from "../rules/vary.ts";
import type {
  Check,
  CheckContext,
  Exchange,
  PlanContext,
  PlannedGroup,
  RequestCase,
  SentGroup,
  Verdict,
} from "../types.ts";

/** What must not change between A and A′ for a comparison to stand: the items' identities and the total. */
function fingerprint(relation: Relation, e: Exchange): string {
  const items = get(e.body, relation.at ?? "/data");
  const keys = Array.isArray(items)
    ? items.map((i) => (i as Record<string, unknown>)?.[relation.key ?? "id"])
    : null;
  return JSON.stringify([e.status, keys, get(e.body, "/meta/total")]);
}

/** The page size a request asks for (the parameter its operation's count rule caps by). */
function pageSize(spec: Spec, op: Operation, query: [string, string][]): number {
  const values = parseRequest(spec, op, new URLSearchParams(query)).values;
  const params = op.rules.flatMap((r) =>
    typeof r.then.count?.max === "object" ? [r.then.count.max.param] : [],
  );
  return Math.max(0, ...params.map((p) => Number(values[p] ?? 0)));
}

/** Requests steered toward the target's data first, then those planned from rules; boundary values last. */
const origin = (r: RequestCase) =>
  r.label.startsWith("steered") ? 0 : r.label.startsWith("rule:") ? 1 : r.label === "base" ? 2 : 3;

/**
 * The first request: a valid one the relation's `when` holds for, steered toward data, giving
 * the varied parameters itself, the largest page first (a one-item page leaves a ranking
 * nothing to reach).
 */
function plan(ctx: PlanContext, op: Operation, relation: Relation): PlannedGroup[] {
  // A base that gives the varied parameters itself shows what they change (limit 1 → 50).
  const given = (r: RequestCase) =>
    Object.keys(relation.vary).filter((p) => r.query.some(([k]) => k === p)).length;
  const sorted = [...ctx.validCases(op.operationId)].sort(
    (x, y) =>
      origin(x) - origin(y) ||
      given(y) - given(x) ||
      pageSize(ctx.spec, op, y.query) - pageSize(ctx.spec, op, x.query),
  );
  const bases = [...primedBases(ctx, op, relation, sorted), ...sorted];
  const groups: PlannedGroup[] = [];
  // Fallbacks try another kind of request (other parameters given), not the same kind with other
  // values: what left the first nothing to judge (a total that pages evenly) holds for its kind.
  const shapes = new Set<string>();
  const shape = (r: RequestCase) => JSON.stringify([r.pathname, r.query.map(([k]) => k).sort()]);
  for (const base of bases) {
    if (shapes.has(shape(base))) continue;
    const parsed = parseRequest(
      ctx.spec,
      op,
      new URLSearchParams(base.query),
      ctx.spec.match(base.pathname)?.pathParams,
    );
    if (!conditionHolds(ctx.spec, op, relation.when, parsed, base.credentials)) continue;
    const second = varyRequest(ctx.spec, op, relation, base, ctx.vocabulary);
    if (!second) continue;
    shapes.add(shape(base));
    const first = { ...base, label: `relation:${relation.id} first` };
    const fromFirst = Object.keys(second.fromFirst).length > 0;
    groups.push({
      check: `relation:${relation.id}`,
      kind: "compare",
      requests: [first, second.request],
      label: relation.id,
      ...(fromFirst
        ? { fromFirst: { at: itemsAt(relation, op.operationId), params: second.fromFirst } }
        : {}),
      // The next bases: sent only if the first gave the relation nothing to judge.
      ...(groups.length > 0 ? { fallback: true } : {}),
    });
    if (groups.length === FIRST_REQUESTS) break;
  }
  return groups;
}

/**
 * A relation whose second request takes a field from the first answer's items (`fromItem`: the
 * price for inclusive bounds) can only judge a first answer whose items carry it: the best base
 * that searches words, searching instead a word of alerts that carry the field (discovery's
 * `carrierWords`). Searched by the most widespread word, a site's first page may hold no priced
 * alert at all, and the relation could never have shown a violation.
 */
function primedBases(
  ctx: PlanContext,
  op: Operation,
  relation: Relation,
  bases: RequestCase[],
): RequestCase[] {
  const fields = Object.values(relation.vary).flatMap((v) => ("fromItem" in v ? [v.fromItem] : []));
  const word = fields.map((f) => ctx.vocabulary.carrierWords[f]?.[0]).find((w) => w !== undefined);
  // The parameters whose words every item holds (a rule's `matches: { mode: any }`), not block words.
  const including = new Set(
    op.rules.flatMap((r) => (r.then.each?.matches?.mode === "any" ? [r.then.each.matches.param] : [])),
  );
  const base = bases.find((b) => b.query.some(([k]) => including.has(k)));
  if (!word || !base) return [];
  return [
    {
      ...base,
      query: base.query.map(([k, v]) => [k, including.has(k) ? word : v] as [string, string]),
      label: `${base.label}: a word of alerts carrying ${fields.join(", ")}`,
    },
  ];
}

/** First requests per relation: the plan's own and two fallbacks. */
const FIRST_REQUESTS = 3;

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

function judge(ctx: CheckContext, op: Operation, relation: Relation, group: SentGroup): Verdict {
  const [a, ...rest] = group.exchanges;
  const again = rest.at(-1);
  const b = rest.length > 1 ? rest[0] : undefined;
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
  const verdict = judgeRelation(
    ctx.spec,
    relation,
    ruleExchange(ctx.spec, op, a),
    ruleExchange(ctx.spec, relation.to ? ctx.spec.operation(relation.to.operation) : op, b),
  );
  return {
    informative: verdict.informative,
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
    plan: (ctx) => plan(ctx, op, relation),
    judgeGroup: (ctx, group) => judge(ctx, op, relation, group),
  };
}

export function relationChecks(spec: Spec): Check[] {
  return spec.relations().map(({ operation, relation }) => relationCheck(operation, relation));
}
