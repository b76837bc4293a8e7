import { checkRule, conditionHolds } from "../src/rules/evaluate.ts";
import { compareValues } from "../src/rules/order.ts";
import { get, has } from "../src/rules/pointer.ts";
import type { EachExpectation, Expectation, Predicate, Rule } from "../src/rules/types.ts";
import { localStamp, windowRange, zoneOffsetSeconds } from "../src/rules/windows.ts";
import type { ParsedRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Operation } from "../src/spec/types.ts";
import { activityCategories, contentFinder, priceScope } from "./fillers.ts";
import { deleteAt, setAt } from "./pointer-edit.ts";

/** One request as the layer shapes its answer: the spec, the operation, its parsed query, the time. */
export interface ShapeContext {
  spec: Spec;
  operation: Operation;
  request: ParsedRequest;
  /** Unix seconds. */
  now: number;
}

/**
 * The x-conformance rules that shape a successful answer to this request: their `when` holds
 * on the query, and they expect a 2xx (or any status). Refusing rules (4xx) and credential
 * rules are the layer's job before Prism is asked, counts are the pager's.
 */
export function shapingRules(ctx: ShapeContext): Rule[] {
  return ctx.operation.rules.filter(
    (rule) =>
      (rule.then.status === undefined || (rule.then.status >= 200 && rule.then.status < 300)) &&
      rule.when?.credentials === undefined &&
      conditionHolds(ctx.spec, ctx.operation, rule.when, ctx.request),
  );
}

/**
 * Makes an example body satisfy every shaping rule: strips fields a rule forbids, supplies
 * fields and members it demands (from the spec or other examples), re-dates rank entries into
 * the asked window, relabels items to the asked category, drops items no edit can save (a
 * word that does not occur, a price outside the range), and sorts. Runs until nothing changes,
 * because one rule's edit (a relabel) can bring another rule into play (price on unpriced).
 */
export function enforceRules(ctx: ShapeContext, body: unknown): unknown {
  const rules = shapingRules(ctx);
  const findContent = contentFinder(ctx.spec);
  let current = structuredClone(body);
  for (let round = 0; round < 4; round++) {
    const before = JSON.stringify(current);
    for (const rule of rules) current = applyExpectation(ctx, rule.then, current, findContent);
    if (JSON.stringify(current) === before) break;
  }
  return current;
}

type FindContent = ReturnType<typeof contentFinder>;

function applyExpectation(ctx: ShapeContext, then: Expectation, body: unknown, findContent: FindContent) {
  for (const pointer of then.absent ?? []) deleteAt(body, pointer);
  for (const pointer of then.present ?? []) {
    if (has(body, pointer)) continue;
    const value = memberFiller(ctx, pointer, body);
    if (value !== undefined) setAt(body, pointer, value);
  }
  if (then.empty !== undefined) setAt(body, then.empty, []);
  let out = body;
  if (then.each) out = applyEach(ctx, then.each, out, findContent);
  if (then.order) {
    const items = get(out, then.order.at);
    if (Array.isArray(items)) out = setAt(out, then.order.at, sortBy(items, then.order.by));
  }
  return out;
}

/** Body members a rule may demand that an example (or Prism's dynamic output) lacks. */
function memberFiller(ctx: ShapeContext, pointer: string, body: unknown): unknown {
  if (pointer.endsWith("/price_scope")) return priceScope(ctx.spec);
  if (pointer === "/cates") return activityCategories(get(body, "/data"));
  return undefined;
}

function applyEach(ctx: ShapeContext, each: EachExpectation, body: unknown, findContent: FindContent) {
  const items = get(body, each.at);
  if (!Array.isArray(items)) return body;
  const fails = (part: Omit<EachExpectation, "at" | "where">, record: unknown) =>
    itemFails(ctx, { at: "", where: each.where, ...part }, record);
  const kept: unknown[] = [];
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    const record = { ...(item as Record<string, unknown>) };
    for (const field of each.absent ?? []) {
      if (fails({ absent: [field] }, record)) delete record[field];
    }
    let keep = true;
    for (const field of each.present ?? []) {
      if (!fails({ present: [field] }, record)) continue;
      const value = field === "content" ? findContent(record) : undefined;
      if (value === undefined) keep = false;
      else record[field] = value;
    }
    for (const [field, predicate] of Object.entries(each.fields ?? {})) {
      if (!keep || !fails({ fields: { [field]: predicate } }, record)) continue;
      fixField(ctx, field, predicate, record, kept.length);
      keep = !fails({ fields: { [field]: predicate } }, record);
    }
    if (keep && each.matches && fails({ matches: each.matches }, record)) keep = false;
    if (keep) kept.push(record);
  }
  return setAt(body, each.at, kept);
}

/** True when the record breaks this part of an `each` expectation (its `where` holding). */
function itemFails(ctx: ShapeContext, each: EachExpectation, record: unknown): boolean {
  const rule: Rule = { id: "mock-shape", summary: "", source: "", then: { each } };
  return (
    checkRule(
      ctx.spec,
      rule,
      {
        operation: ctx.operation,
        request: ctx.request,
        status: 200,
        mediaType: "application/json",
        body: [record],
        sentAt: ctx.now,
        receivedAt: ctx.now,
      },
      { toleranceSeconds: 0 },
    ).length > 0
  );
}

/**
 * The field predicates an edit can satisfy honestly in a mock: a time inside the asked rank
 * window (static examples are dated once; the window moves with the clock), the category asked
 * for, and a local date or time written from the item's own timestamp. Anything else (a price
 * bound, a literal value) drops the item instead.
 */
function fixField(
  ctx: ShapeContext,
  field: string,
  predicate: Predicate,
  record: Record<string, unknown>,
  position: number,
): void {
  // Only a field the item already has is edited: an item without it is of another shape (a
  // zdm item among alerts in dynamic mode) and is dropped rather than turned into a hybrid.
  if (!Object.hasOwn(record, field)) return;
  if (predicate.inWindow) {
    const act = ctx.request.values[predicate.inWindow.param];
    if (typeof act !== "string") return;
    const { from, to } = windowRange(ctx.spec.rankWindows, act, ctx.now);
    redate(record, field, Math.max(from, to - 60 * (position + 1)), ctx.spec.rankWindows.timezone);
  } else if (predicate.sameCategory) {
    const category = ctx.spec.category(String(ctx.request.values[predicate.sameCategory.param]));
    if (!category) return;
    record[field] = category.id;
    if (typeof record.catename === "string") record.catename = category.name;
  } else if (predicate.localTime) {
    // A local date or time is derived from the item's timestamp: written from it, it says no more.
    const t = record[predicate.localTime.of];
    if (typeof t === "number") {
      record[field] = localStamp(t, ctx.spec.rankWindows.timezone, predicate.localTime.format);
    }
  }
}

/** Sets a Unix-seconds field and keeps the alert's local `datetime`/`shorttime` in step with it. */
function redate(record: Record<string, unknown>, field: string, seconds: number, timeZone: string): void {
  record[field] = seconds;
  const local = new Date((seconds + zoneOffsetSeconds(seconds, timeZone)) * 1000).toISOString();
  if (typeof record.datetime === "string") record.datetime = local.slice(0, 10);
  if (typeof record.shorttime === "string") record.shorttime = local.slice(11, 16);
}

function sortBy(items: unknown[], by: { field: string; direction: "asc" | "desc" }[]): unknown[] {
  const value = (item: unknown, field: string) => (item as Record<string, unknown>)?.[field];
  return [...items].sort((a, b) => {
    for (const { field, direction } of by) {
      const d = compareValues(value(a, field), value(b, field));
      if (d !== 0) return direction === "asc" ? d : -d;
    }
    return 0;
  });
}
