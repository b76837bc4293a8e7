/**
 * The first requests of a relation (x-relations), each with the second made from it: a valid
 * request the relation's `when` holds for, steered toward the target's data, chosen so that a
 * violation would be visible on it. Never one the spec says answers empty (a price filter on an
 * unpriced category: nothing to compare); for page arithmetic, other page sizes next (a total
 * that pages evenly leaves no part-filled page); for a window carried across operations, the
 * windows whose ranks differ from their neighbours', each with a control at the neighbour.
 */
import { conditionHolds } from "../../src/rules/evaluate.ts";
import { itemsAt } from "../../src/rules/relations.ts";
import type { Relation } from "../../src/rules/types.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { varyRequest } from "../rules/vary.ts";
import type { PlanContext, PlannedGroup, RequestCase } from "../types.ts";
import {
  CONTROL,
  carriedWindows,
  controlWindow,
  discriminatingWindows,
  withParameter,
} from "./relation-windows.ts";

/** First requests per relation: the plan's own and two fallbacks. */
const FIRST_REQUESTS = 3;

/** The parameter that sets an operation's page size (the one its count rules cap by). */
const sizeParameter = (op: Operation): string | undefined =>
  op.rules.flatMap((r) => (typeof r.then.count?.max === "object" ? [r.then.count.max.param] : []))[0];

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

const parsedOf = (spec: Spec, op: Operation, r: RequestCase) =>
  parseRequest(spec, op, new URLSearchParams(r.query), spec.match(r.pathname)?.pathParams);

/** True when a rule of the spec says the answer's items are empty (nothing a relation could compare). */
function answersEmpty(spec: Spec, op: Operation, relation: Relation, r: RequestCase): boolean {
  const at = itemsAt(relation, op.operationId);
  const parsed = parsedOf(spec, op, r);
  return op.rules.some(
    (rule) => rule.then.empty === at && conditionHolds(spec, op, rule.when, parsed, r.credentials),
  );
}

/**
 * The candidates in order, each with the key that tells kinds apart: the best base first; then,
 * by default, other kinds of request (other parameters given: what left the first nothing to judge
 * holds for its kind); for page arithmetic the best base at the largest page sizes; for a carried
 * window the best base at the windows that can discriminate.
 */
function candidates(
  ctx: PlanContext,
  op: Operation,
  relation: Relation,
): { base: RequestCase; key: string }[] {
  // A base that gives the varied parameters itself shows what they change (limit 1 → 50).
  const given = (r: RequestCase) =>
    Object.keys(relation.vary).filter((p) => r.query.some(([k]) => k === p)).length;
  const sorted = [...ctx.validCases(op.operationId)].sort(
    (x, y) =>
      origin(x) - origin(y) ||
      given(y) - given(x) ||
      pageSize(ctx.spec, op, y.query) - pageSize(ctx.spec, op, x.query),
  );
  const bases = [...primedBases(ctx, op, relation, sorted), ...sorted].filter(
    (b) => !answersEmpty(ctx.spec, op, relation, b),
  );
  const shape = (r: RequestCase) => JSON.stringify([r.pathname, r.query.map(([k]) => k).sort()]);
  const shaped = bases.map((base) => ({ base, key: shape(base) }));
  const [best] = bases;
  if (!best) return [];
  const window = carriedWindows(ctx.spec, op, relation)[0];
  if (window) return [...windowBases(ctx, op, relation, best, window), ...shaped];
  if (relation.expect.pageCounts) return [...sizeBases(op, best), ...shaped];
  return shaped;
}

/** The best base at its own page size, then one below the largest, then the largest (totals rarely a multiple of all three). */
function sizeBases(op: Operation, best: RequestCase): { base: RequestCase; key: string }[] {
  const name = sizeParameter(op);
  const max = op.parameters.find((p) => p.name === name)?.schema.maximum;
  if (!name || max === undefined) return [];
  const at = (size: number) => ({
    base: {
      ...best,
      query: [...best.query.filter(([k]) => k !== name), [name, String(size)] as [string, string]],
      label: `${best.label}, ${name} ${size}`,
    },
    key: `${name} ${size}`,
  });
  const own = best.query.find(([k]) => k === name)?.[1];
  // One below the largest first: generated and real totals are often round (400 pages evenly by 100).
  return [{ base: best, key: `${name} ${own ?? "default"}` }, at(max - 1), at(max)];
}

/** The best base at each window, those whose foreseen rank differs from their neighbours' first. */
function windowBases(
  ctx: PlanContext,
  op: Operation,
  relation: Relation,
  best: RequestCase,
  name: string,
): { base: RequestCase; key: string }[] {
  const second = varyRequest(ctx.spec, op, relation, best, ctx.vocabulary);
  const target = relation.to ? ctx.spec.operation(relation.to.operation) : op;
  const size = second ? pageSize(ctx.spec, target, second.request.query) : 0;
  const acts = discriminatingWindows(ctx.spec, relation, ctx.vocabulary.timeline, Date.now() / 1000, size);
  return acts.map((act) => ({
    base: { ...withParameter(ctx.spec, op, best, name, act), label: `${best.label}, ${name} ${act}` },
    key: `${name} ${act}`,
  }));
}

/** The group of one first request: the second made from it, and the control at a neighbouring window. */
function groupOf(
  ctx: PlanContext,
  op: Operation,
  relation: Relation,
  base: RequestCase,
): PlannedGroup | undefined {
  if (!conditionHolds(ctx.spec, op, relation.when, parsedOf(ctx.spec, op, base), base.credentials)) return;
  const second = varyRequest(ctx.spec, op, relation, base, ctx.vocabulary);
  if (!second) return;
  const first = { ...base, label: `relation:${relation.id} first` };
  const fromFirst = Object.keys(second.fromFirst).length > 0;
  const window = carriedWindows(ctx.spec, op, relation)[0];
  const act = window && parsedOf(ctx.spec, op, base).values[window];
  const neighbour = typeof act === "string" ? controlWindow(ctx.spec, act, Date.now() / 1000) : undefined;
  const target = relation.to ? ctx.spec.operation(relation.to.operation) : op;
  const control =
    window && neighbour
      ? [
          {
            ...withParameter(ctx.spec, target, second.request, window, neighbour),
            label: `relation:${relation.id} ${CONTROL} ${window} ${neighbour}`,
          },
        ]
      : [];
  return {
    check: `relation:${relation.id}`,
    kind: "compare",
    requests: [first, second.request, ...control],
    label: relation.id,
    ...(fromFirst ? { fromFirst: { at: itemsAt(relation, op.operationId), params: second.fromFirst } } : {}),
  };
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

/** The relation's groups: the first is the plan's own, the next are sent only if it gave nothing to judge. */
export function planRelation(ctx: PlanContext, op: Operation, relation: Relation): PlannedGroup[] {
  const groups: PlannedGroup[] = [];
  const keys = new Set<string>();
  for (const { base, key } of candidates(ctx, op, relation)) {
    // One kind once, and one request once (the best base comes again among the kinds).
    const sent = JSON.stringify([base.pathname, base.query]);
    if (keys.has(key) || keys.has(sent)) continue;
    const group = groupOf(ctx, op, relation, base);
    if (!group) continue;
    keys.add(key).add(sent);
    groups.push(groups.length > 0 ? { ...group, fallback: true } : group);
    if (groups.length === FIRST_REQUESTS) break;
  }
  return groups;
}
