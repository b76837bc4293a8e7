/**
 * Why a relation's case could not have shown a violation, said exactly: what was sent, what came
 * back, and what about it left nothing to judge (a total that pages evenly, a first page that is
 * not full, answers empty, the second answer the same as a wrong window's). A case that could
 * not discriminate is never counted as evidence; its reason is the report's when no case could.
 */

import type { RuleExchange } from "../../src/rules/evaluate.ts";
import { get } from "../../src/rules/pointer.ts";
import { itemFields, itemsAt, lastPage, pageSizeOf } from "../../src/rules/relations.ts";
import type { Relation } from "../../src/rules/types.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Exchange } from "../types.ts";

type Item = Record<string, unknown>;

const itemsOf = (relation: Relation, operationId: string, body: unknown): Item[] => {
  const v = get(body, itemsAt(relation, operationId));
  return Array.isArray(v) ? (v as Item[]) : [];
};

const keysOf = (relation: Relation, items: Item[]) =>
  items.map((i) => JSON.stringify(i?.[relation.key ?? "id"]));

/** An exchange as a reason shows it: the path and query sent, the items and total received. */
export function described(relation: Relation, e: Exchange, operationId: string): string {
  const url = new URL(e.url);
  const total = get(e.body, "/meta/total");
  const n = itemsOf(relation, operationId, e.body).length;
  const sent = decodeURIComponent(url.pathname + url.search);
  return `${sent} → ${n} item${n === 1 ? "" : "s"}${typeof total === "number" ? `, meta.total ${total}` : ""}`;
}

/**
 * When the second answer holds the same items as the control (the second request at a
 * neighbouring window): the reason the case could not discriminate; otherwise undefined.
 */
export function sameAsControl(
  relation: Relation,
  first: { exchange: Exchange; operationId: string },
  operationId: string,
  b: Exchange,
  control: Exchange,
): string | undefined {
  const mine = keysOf(relation, itemsOf(relation, operationId, b.body));
  const theirs = keysOf(relation, itemsOf(relation, operationId, control.body));
  if (mine.join() !== theirs.join()) return undefined;
  return `the second answer holds the same ${mine.length} items as the control at a neighbouring window (first ${described(relation, first.exchange, first.operationId)}; second ${described(relation, b, operationId)}; control ${described(relation, control, operationId)}): an answer of the wrong window would have passed`;
}

/** The part of the relation that each expectation leaves unjudged on these answers, in words. */
function unjudged(relation: Relation, spec: Spec, a: RuleExchange, b: RuleExchange): string[] {
  const { expect } = relation;
  const aItems = itemsOf(relation, a.operation.operationId, a.body);
  const bItems = itemsOf(relation, b.operation.operationId, b.body);
  const size = pageSizeOf(spec, a);
  const total = get(a.body, "/meta/total");
  const out: string[] = [];
  if (expect.pageCounts && typeof total === "number" && size !== undefined)
    out.push(
      total === 0
        ? "meta.total is 0: no page holds anything to count"
        : total % size === 0
          ? `meta.total ${total} at ${size} a page fills its last page (${lastPage(total, size)}) too: no page is part-filled, so a count off by one could not show`
          : `neither page is the part-filled last page of meta.total ${total} at ${size} a page`,
    );
  if (expect.empty)
    out.push(
      `the first page holds ${aItems.length} of ${size ?? "?"}: the results end on it, so a total capped below them could not show`,
    );
  if (expect.superset || expect.subset)
    out.push(
      (expect.superset ? aItems : bItems).length === 0
        ? `the ${expect.superset ? "first" : "second"} answer holds no items to look for in the other`
        : "no item of one answer ranks before the other's last (a full page): none had to be in it",
    );
  if ((expect.prefix || expect.equal) && aItems.length === 0 && bItems.length === 0)
    out.push("both answers hold no items");
  if (expect.disjoint && (aItems.length === 0 || bItems.length === 0))
    out.push("an item in both pages needs both to hold items");
  if (expect.containsItem) out.push(`no item of the first answer carries ${itemFields(relation).join(", ")}`);
  return out;
}

/** The reason a case the relation judged without evidence could not have shown a violation. */
export function whyNoEvidence(
  relation: Relation,
  spec: Spec,
  a: { rule: RuleExchange; exchange: Exchange },
  b: { rule: RuleExchange; exchange: Exchange },
): string {
  const why = unjudged(relation, spec, a.rule, b.rule);
  const first = described(relation, a.exchange, a.rule.operation.operationId);
  const second = described(relation, b.exchange, b.rule.operation.operationId);
  return `${why.length > 0 ? why.join("; ") : "nothing in these answers could show a violation"} (first ${first}; second ${second})`;
}
