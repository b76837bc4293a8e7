/**
 * Whether a second request of someone else's traffic is one the suite could have made from a
 * first: the relation's `vary` (x-relations) or an `ignores` rule's added parameters, every other
 * parameter unchanged. Only then may the two answers be compared by that relation or rule.
 */
import { conditionHolds } from "../../src/rules/evaluate.ts";
import { get } from "../../src/rules/pointer.ts";
import { itemFields, lastPage, pageSizeOf } from "../../src/rules/relations.ts";
import type { Relation, Variation } from "../../src/rules/types.ts";
import { narrowestWindow, windowRange } from "../../src/rules/windows.ts";
import { splitWords } from "../../src/rules/words.ts";
import type { ParsedRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Exchange } from "../types.ts";

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

const keys = new WeakMap<Exchange, string>();

/** What a request asks: operation path, method, credentials and query (in any order); computed once. */
function requestKey(e: Exchange): string {
  let key = keys.get(e);
  if (key === undefined) {
    const { method, pathname, credentials, query } = e.request;
    key = JSON.stringify([method, pathname, credentials ?? null, [...query].sort()]);
    keys.set(e, key);
  }
  return key;
}

/** The two requests ask the same thing. */
export const sameRequest = (a: Exchange, b: Exchange): boolean => requestKey(a) === requestKey(b);

/** The first item of A carrying every field a variation takes from it (the one the suite makes B from). */
function sourceItem(relation: Relation, a: Exchange): Record<string, unknown> | undefined {
  const fields = itemFields(relation);
  const items = get(a.body, relation.at ?? "/data");
  if (!Array.isArray(items)) return undefined;
  return items.find(
    (i) =>
      i !== null && typeof i === "object" && fields.every((f) => (i as Record<string, unknown>)[f] != null),
  ) as Record<string, unknown> | undefined;
}

/** Does one parameter of B follow from A by the variation? */
function follows(
  spec: Spec,
  op: Operation,
  name: string,
  v: Variation,
  a: ParsedRequest,
  b: ParsedRequest,
  item: Record<string, unknown> | undefined,
  /** A's exchange: its answer (last page) and when it was sent (calendar-day windows nest or not depending on the hour). */
  first: Exchange,
): boolean {
  const at = first.sentAt;
  const before = a.values[name];
  const after = b.values[name];
  if ("addWord" in v) {
    const syntax = op.parameters.find((p) => p.name === name)?.words;
    if (!syntax) return false;
    const words = (p: ParsedRequest) => splitWords(p.raw[name] ?? "", syntax);
    const had = words(a);
    const has = words(b);
    return has.length > had.length && had.every((w) => has.includes(w));
  }
  if ("set" in v) return String(after) === String(v.set) && !same(before, after);
  if ("add" in v) return typeof before === "number" && after === before + v.add;
  // A larger page shows the same ranking further: any larger value serves as well as the maximum.
  if ("max" in v) {
    const maximum = op.parameters.find((p) => p.name === name)?.schema.maximum;
    if (typeof before !== "number" || typeof after !== "number") return false;
    return after > before || (after === before && after === maximum);
  }
  if ("widerWindow" in v) {
    if (typeof before !== "string" || typeof after !== "string" || before === after) return false;
    const own = windowRange(spec.rankWindows, before, at);
    const wider = windowRange(spec.rankWindows, after, at);
    return wider.from <= own.from && wider.to >= own.to;
  }
  if ("remove" in v) return a.raw[name] !== undefined && b.raw[name] === undefined;
  if ("last" in v || "afterLast" in v) {
    const total = get(first.body, "/meta/total");
    const { status, body, sentAt, receivedAt } = first;
    const size = pageSizeOf(spec, { operation: op, request: a, status, body, sentAt, receivedAt });
    const past = "afterLast" in v ? 1 : 0;
    return typeof total === "number" && size !== undefined && after === lastPage(total, size) + past;
  }
  if ("windowOf" in v) {
    const t = item?.[v.windowOf];
    return (
      typeof t === "number" &&
      [first.sentAt, first.receivedAt].some((now) => after === narrowestWindow(spec.rankWindows, t, now))
    );
  }
  return item !== undefined && b.raw[name] === String(item[v.fromItem]);
}

/**
 * B is A varied as the relation says (A satisfying its `when`), every other parameter the same.
 * Both on the relation's own operation: a relation crossing to another (`to`) is not paired from
 * traffic (answers are kept per operation), only judged on the suite's own requests.
 */
export function isRelationPair(
  spec: Spec,
  op: Operation,
  relation: Relation,
  a: Exchange,
  b: Exchange,
): boolean {
  if (relation.to) return false;
  if (a.operation !== op || b.operation !== op || a.request.pathname !== b.request.pathname) return false;
  if (!a.parsed || !b.parsed || a.parsed.errors.length > 0 || b.parsed.errors.length > 0) return false;
  if (a.request.credentials !== b.request.credentials) return false;
  if (!conditionHolds(spec, op, relation.when, a.parsed, a.request.credentials)) return false;
  const item = sourceItem(relation, a);
  for (const p of op.parameters) {
    const v = relation.vary[p.name];
    if (v) {
      if (!follows(spec, op, p.name, v, a.parsed, b.parsed, item, a)) return false;
    } else if (!same(a.parsed.values[p.name], b.parsed.values[p.name])) return false;
  }
  return true;
}

/** B is A with some of the ignored parameters added or changed, nothing else. */
export function isIgnoresPair(ignored: string[], a: Exchange, b: Exchange): boolean {
  if (a.request.credentials !== b.request.credentials || a.request.pathname !== b.request.pathname)
    return false;
  const rest = (e: Exchange) => JSON.stringify(e.request.query.filter(([k]) => !ignored.includes(k)).sort());
  const added = (e: Exchange) => JSON.stringify(e.request.query.filter(([k]) => ignored.includes(k)).sort());
  return rest(a) === rest(b) && added(a) !== added(b) && a.request.query.every(([k]) => !ignored.includes(k));
}
