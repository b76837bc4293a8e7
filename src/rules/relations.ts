/**
 * Relations between two answers (x-relations): what a single answer cannot show. An
 * implementation that searches only the first word of an OR list, treats price bounds as
 * exclusive, repeats page 1 as page 2 or drops entries from a rank returns answers that are each
 * valid; the lie shows when the first answer (A) is compared with the second (B), made from A's
 * request by the relation's `vary`.
 *
 * Rankings are cut: a page holds the first `limit` items of a longer list. "A's items are among
 * B's" can then only be asked of the A items that rank before B's last item (when B is a full
 * page); ties in the order are not asked either (an implementation may order them either way).
 */
import type { Spec } from "../spec/spec.ts";
import { conditionHolds, countCap, itemPasses, type RuleExchange, type RuleFailure } from "./evaluate.ts";
import { get } from "./pointer.ts";
import type { ItemFilter, Relation } from "./types.ts";

type Item = Record<string, unknown>;

export interface RelationVerdict {
  failures: RuleFailure[];
  /** True when the two answers could have shown a violation. */
  informative: boolean;
}

/** Where an answer's items are: the second operation's pointer when the relation crosses to it. */
export function itemsAt(relation: Relation, operationId: string): string {
  const other = relation.to && operationId === relation.to.operation ? relation.to.at : undefined;
  return other ?? relation.at ?? "/data";
}

const itemsOf = (relation: Relation, x: RuleExchange): Item[] => {
  const v = get(x.body, itemsAt(relation, x.operation.operationId));
  return Array.isArray(v) ? v.filter((i): i is Item => i !== null && typeof i === "object") : [];
};

/** The page size of an answer: the least cap of its operation's count rules (undefined: none). */
export function pageSizeOf(spec: Spec, x: RuleExchange): number | undefined {
  const caps = x.operation.rules
    .filter((r) => r.then.count && conditionHolds(spec, x.operation, r.when, x.request, x.credentials))
    .map((r) => countCap(spec, r.then, x))
    .filter((c): c is number => c !== undefined);
  return caps.length > 0 ? Math.min(...caps) : undefined;
}

/** True when an answer is a full page: as many items as a count rule of its operation allows. */
function full(spec: Spec, x: RuleExchange, count: number): boolean {
  const size = pageSizeOf(spec, x);
  return size === undefined || count >= size;
}

/** -1, 0 or 1: the order of two items by the relation's order fields. */
function compare(relation: Relation, a: Item, b: Item): number {
  for (const { field, direction } of relation.order ?? []) {
    const x = a[field];
    const y = b[field];
    if (x === y) continue;
    const before = typeof x === "number" && typeof y === "number" ? x > y : String(x) > String(y);
    return before === (direction === "desc") ? -1 : 1;
  }
  return 0;
}

/**
 * The items of `from` (those of the filter) that `to` must hold: all of them when `to` is not a
 * full page; otherwise those ranking strictly before `to`'s last item (no order: none).
 */
function owed(
  spec: Spec,
  relation: Relation,
  from: Item[],
  to: RuleExchange,
  filter: ItemFilter | true,
): Item[] {
  const toItems = itemsOf(relation, to);
  const passing = filter === true ? from : from.filter((i) => itemPasses(spec, filter, to, i));
  if (!full(spec, to, toItems.length)) return passing;
  const last = toItems.at(-1);
  if (!last || !relation.order) return [];
  return passing.filter((i) => compare(relation, i, last) < 0);
}

/**
 * A's items are B's first items. Items that tie in `order` may come in either order, and at the
 * cut a tie may be settled either way: position by position the order keys must match, A's items
 * must be among B's first as many, except those tying with B's item at the cut, which may be any
 * of B's items with that key.
 */
function isPrefix(relation: Relation, a: Item[], b: Item[]): boolean {
  if (!relation.order) return keysOf(relation, a).every((k, i) => keysOf(relation, b)[i] === k);
  const head = b.slice(0, a.length);
  if (head.length < a.length || a.some((x, i) => compare(relation, x, head[i] as Item) !== 0)) return false;
  const headKeys = new Set(keysOf(relation, head));
  const last = head.at(-1);
  return a.every((x) => {
    const key = String(x[relation.key ?? "id"]);
    if (headKeys.has(key)) return true;
    return (
      last !== undefined &&
      compare(relation, x, last) === 0 &&
      keysOf(
        relation,
        b.filter((y) => compare(relation, y, last) === 0),
      ).includes(key)
    );
  });
}

const keysOf = (relation: Relation, items: Item[]) => items.map((i) => String(i[relation.key ?? "id"]));
const totalOf = (x: RuleExchange) => get(x.body, "/meta/total");
const pageOf = (x: RuleExchange) => Number(x.request.values.page ?? 1);

/** The last page of `total` results at `size` a page: at least 1 (an empty result has one, empty, page). */
export const lastPage = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** The fields of A's item that `fromItem` and `windowOf` variations take. */
export const itemFields = (relation: Relation): string[] =>
  Object.values(relation.vary).flatMap((v) =>
    "fromItem" in v ? [v.fromItem] : "windowOf" in v ? [v.windowOf] : [],
  );

/** The first item of A that carries every field a variation takes from it (B was made from it). */
export function sourceItem(relation: Relation, a: RuleExchange): Item | undefined {
  const fields = itemFields(relation);
  return itemsOf(relation, a).find((i) => fields.every((f) => i[f] !== undefined && i[f] !== null));
}

/** The two answers of one relation, read once for every expectation. */
interface Pair {
  spec: Spec;
  relation: Relation;
  a: RuleExchange;
  b: RuleExchange;
  aItems: Item[];
  bItems: Item[];
  aKeys: Set<string>;
  bKeys: Set<string>;
}

type Failure = Omit<RuleFailure, "ruleId">;

/** What one expectation found: whether the answers could have shown a violation, and the violations. */
interface Judged {
  informative: boolean;
  failures: Failure[];
}

const judged = (informative: boolean, failure?: Failure | false): Judged => ({
  informative,
  failures: failure ? [failure] : [],
});

/** Judges a relation on the first answer A and the second B (both 2xx; the caller checks the data did not move). */
export function judgeRelation(
  spec: Spec,
  relation: Relation,
  a: RuleExchange,
  b: RuleExchange,
): RelationVerdict {
  const aItems = itemsOf(relation, a);
  const bItems = itemsOf(relation, b);
  const pair: Pair = {
    spec,
    relation,
    a,
    b,
    aItems,
    bItems,
    aKeys: new Set(keysOf(relation, aItems)),
    bKeys: new Set(keysOf(relation, bItems)),
  };
  const verdicts = EXPECTATIONS.filter(([key]) => relation.expect[key]).map(([, judge]) => judge(pair));
  return {
    failures: verdicts.flatMap((v) => v.failures.map((f) => ({ ruleId: relation.id, ...f }))),
    informative: verdicts.some((v) => v.informative),
  };
}

function superset({ spec, relation, aItems, b, bKeys }: Pair): Judged {
  const due = owed(spec, relation, aItems, b, relation.expect.superset as ItemFilter | true);
  const missing = keysOf(relation, due).filter((k) => !bKeys.has(k));
  return judged(
    due.length > 0,
    missing.length > 0 && {
      message: "items of the first answer are missing from the second",
      received: missing.slice(0, 5),
      documented: "present",
    },
  );
}

function subset({ spec, relation, bItems, a, aKeys }: Pair): Judged {
  const due = owed(spec, relation, bItems, a, relation.expect.subset as ItemFilter | true);
  const extra = keysOf(relation, due).filter((k) => !aKeys.has(k));
  return judged(
    due.length > 0,
    extra.length > 0 && {
      message: "the second answer holds items the first would have shown",
      received: extra.slice(0, 5),
      documented: "absent",
    },
  );
}

function prefix({ relation, aItems, bItems }: Pair): Judged {
  return judged(
    aItems.length > 0,
    !isPrefix(relation, aItems, bItems) && {
      message: "the first answer is not the start of the second",
      received: keysOf(relation, bItems).slice(0, aItems.length),
      documented: keysOf(relation, aItems),
    },
  );
}

function equal({ relation, aItems, bItems }: Pair): Judged {
  return judged(
    aItems.length > 0 || bItems.length > 0,
    (!isPrefix(relation, aItems, bItems) || !isPrefix(relation, bItems, aItems)) && {
      message: "the two answers do not hold the same items in the same order",
      received: keysOf(relation, bItems).slice(0, 10),
      documented: keysOf(relation, aItems).slice(0, 10),
    },
  );
}

function disjoint({ aItems, bItems, aKeys, bKeys }: Pair): Judged {
  const both = [...bKeys].filter((k) => aKeys.has(k));
  return judged(
    aItems.length > 0 && bItems.length > 0,
    both.length > 0 && {
      message: "items are in both answers",
      received: both.slice(0, 5),
      documented: "none in both",
    },
  );
}

function containsItem({ relation, a, bKeys }: Pair): Judged {
  const item = sourceItem(relation, a);
  const key = item && String(item[relation.key ?? "id"]);
  return judged(
    item !== undefined,
    key !== undefined &&
      !bKeys.has(key) && {
        message: "the item the second request was made from is missing from it",
        received: [...bKeys].slice(0, 5),
        documented: key,
      },
  );
}

function empty({ spec, a, b, aItems, bItems }: Pair): Judged {
  // Only a full first page shows that the results reach past one page: a total capped below the
  // true count (100, a search engine's default) then leaves items on the page after the last.
  const full = pageSizeOf(spec, a);
  return judged(
    full !== undefined && aItems.length >= full,
    bItems.length > 0 && {
      message: `page ${pageOf(b)}, after the last page of meta.total ${String(totalOf(a))}, holds items`,
      received: bItems.length,
      documented: 0,
    },
  );
}

/** Not evidence by itself: whether the pair could show a violation is the item expectations' to say. */
function total({ relation, a, b }: Pair): Judged {
  const ta = totalOf(a);
  const tb = totalOf(b);
  const want = relation.expect.total;
  if (typeof ta !== "number" || typeof tb !== "number") return judged(false);
  const holds = want === "gte" ? tb >= ta : want === "lte" ? tb <= ta : tb === ta;
  return judged(
    false,
    !holds && {
      message: `meta.total of the second must be ${want} the first's`,
      received: tb,
      documented: `${want} ${ta}`,
    },
  );
}

function pageCounts({ spec, a, b, aItems, bItems }: Pair): Judged {
  const ta = totalOf(a);
  const size = pageSizeOf(spec, a);
  if (typeof ta !== "number" || size === undefined) return judged(false);
  const pages = [
    [a, aItems],
    [b, bItems],
  ] as const;
  const verdicts = pages.map(([x, items]) => {
    const want = Math.max(0, Math.min(size, ta - (pageOf(x) - 1) * size));
    // Only a page the total leaves part-filled shows the arithmetic: a full page is what the
    // count rule already judges, a page past the end holds nothing to count.
    return judged(
      want > 0 && want < size,
      items.length !== want && {
        message: `page ${pageOf(x)} must hold ${want} items (meta.total ${ta}, page size ${size})`,
        received: items.length,
        documented: want,
      },
    );
  });
  return { informative: verdicts.some((v) => v.informative), failures: verdicts.flatMap((v) => v.failures) };
}

/** Each expectation a relation may state, in the order its failures are reported. */
const EXPECTATIONS: [keyof Relation["expect"], (pair: Pair) => Judged][] = [
  ["superset", superset],
  ["subset", subset],
  ["prefix", prefix],
  ["equal", equal],
  ["disjoint", disjoint],
  ["containsItem", containsItem],
  ["empty", empty],
  ["total", total],
  ["pageCounts", pageCounts],
];
