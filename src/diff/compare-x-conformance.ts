import { type At, type Collector, down, isObject, type Json, obj, same } from "./context.ts";
import { type QueryParam, refusedBySchema } from "./refusal-proof.ts";
import type { RuleId } from "./rules.ts";

/** Entries of a list (rules, relations) by their id, with their index for locations. */
function byId(list: unknown): Map<string, { entry: Json; i: string }> {
  return new Map(
    (Array.isArray(list) ? list : [])
      .filter(isObject)
      .map((r, i) => [String(r.id), { entry: r, i: String(i) }]),
  );
}

/** The rule id an added or removed entry is reported under, and a note for its message. */
type Kind = (entry: Json, others: Map<string, { entry: Json; i: string }>) => { rule: RuleId; note?: string };
type Kinds = { added: Kind; removed: Kind; noun: string; core: (entry: Json) => Json };

/** Pairs a list's entries by id: removed and added ones are reported here, kept ones by `compare`. */
function compareById(
  c: Collector,
  bRaw: unknown,
  hRaw: unknown,
  at: At,
  kinds: Kinds,
  compare: (id: string, b: Json, h: Json, where: At) => void,
): void {
  const rb = byId(bRaw);
  const rh = byId(hRaw);
  // An entry whose id alone changed (same condition, same expectation) is the same promise.
  const renamed = new Map<string, string>();
  for (const [id, b] of rb) {
    if (rh.has(id)) continue;
    const core = kinds.core(b.entry);
    const to = [...rh].find(
      ([hid, h]) => !rb.has(hid) && ![...renamed.values()].includes(hid) && same(kinds.core(h.entry), core),
    );
    if (to) renamed.set(id, to[0]);
  }
  for (const [id, b] of rb) {
    const to = renamed.get(id);
    if (to !== undefined) {
      const h = rh.get(to) as { entry: Json; i: string };
      const where: At = { ...at, base: [...at.base, b.i], head: [...at.head, h.i] };
      c.add("documentation-changed", down(where, "id"), `${kinds.noun} ${id} renamed ${to}`);
      compare(id, b.entry, { ...h.entry, id: b.entry.id }, where);
      continue;
    }
    const h = rh.get(id);
    const where: At = { ...at, base: [...at.base, b.i], head: [...at.head, h?.i ?? b.i] };
    if (h) compare(id, b.entry, h.entry, where);
    else {
      const { rule, note } = kinds.removed(b.entry, rh);
      c.add(rule, where, `${kinds.noun} ${id} removed${note ?? ""}`, "base");
    }
  }
  const targets = new Set(renamed.values());
  for (const [id, h] of rh) {
    if (rb.has(id) || targets.has(id)) continue;
    const { rule, note } = kinds.added(h.entry, rb);
    c.add(rule, { ...at, head: [...at.head, h.i] }, `${kinds.noun} ${id} added${note ?? ""}`);
  }
}

/**
 * The x-conformance rules of one operation, by id. A rule is a promise to clients: removing it
 * or changing its condition or expectation is breaking, except for the two changes we can
 * classify by direction (a fixed count.max, i.e. retention, going up; docs-only edits). Its
 * `examples` are documentation: they illustrate the promise, and the spec's own tests hold them
 * to it, so editing them changes no contract.
 */
export function compareConformance(
  c: Collector,
  bRaw: unknown,
  hRaw: unknown,
  at: At,
  params: Map<string, QueryParam> = new Map(),
): void {
  const kinds: Kinds = {
    // A new refusing rule turns requests that were served into 400s, unless the other document
    // already refused the same requests the same way (a rule renamed or split off), or a
    // parameter's schema already refused them with the same 400 invalid-parameter.
    added: (rule, before) => {
      if (!refuses(rule)) return { rule: "x-conformance-rule-added" };
      const same = refusedAlready(rule, before);
      if (same)
        return { rule: "x-conformance-rule-added", note: ` (rule ${same} already refused these requests)` };
      if (restatesSchema(rule, params))
        return {
          rule: "x-conformance-rule-added",
          note: " (the parameter's schema already refused these requests)",
        };
      return { rule: "x-conformance-refusal-added", note: `: ${describeRefusal(rule)}` };
    },
    // A refusing rule gone only lets through requests that were refused: the API accepts more.
    removed: (rule) =>
      refuses(rule)
        ? { rule: "x-conformance-refusal-removed", note: `: ${describeRefusal(rule)} no longer promised` }
        : { rule: "x-conformance-rule-removed" },
    noun: "rule",
    core: (r) => {
      const { id: _, ...rest } = logic(r);
      return rest;
    },
  };
  compareById(c, bRaw, hRaw, at, kinds, (id, b, h, where) => compareRule(c, id, b, h, where));
}

/**
 * The x-relations of one operation, by id. A relation is a promise about how answers relate:
 * a new one is a new promise, a removed or changed one (loosened or otherwise) is breaking.
 */
export function compareRelations(c: Collector, bRaw: unknown, hRaw: unknown, at: At): void {
  const kinds: Kinds = {
    added: () => ({ rule: "x-relation-added" }),
    removed: () => ({ rule: "x-relation-removed" }),
    noun: "relation",
    core: (r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== "id" && !DOCS.includes(k))),
  };
  compareById(c, bRaw, hRaw, at, kinds, (id, b, h, where) => {
    if (!same(docsOnly(b), docsOnly(h)))
      c.add("documentation-changed", where, `relation ${id}: ${docsChanged(b, h)} changed`);
    const parts = Object.keys({ ...b, ...h }).filter((k) => !DOCS.includes(k) && !same(b[k], h[k]));
    if (parts.length > 0)
      c.add(
        "x-relation-changed",
        down(where, parts[0] as string),
        `relation ${id}: ${parts.join(" and ")} changed`,
      );
  });
}

/**
 * A refusing rule: its expectation is a 4xx status, so implementations refuse the requests its
 * `when` matches (openapi/README.md: "Rules whose `status` is 4xx (refusing rules)").
 */
function refuses(rule: Json): boolean {
  const status = obj(rule.then).status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/** The id of a refusing rule in `others` that refuses the same requests with the same status. */
function refusedAlready(rule: Json, others: Map<string, { entry: Json }>): string | undefined {
  for (const [id, { entry }] of others)
    if (refuses(entry) && same(entry.when, rule.when) && same(obj(entry.then).status, obj(rule.then).status))
      return id;
  return undefined;
}

/** A 400 invalid-parameter rule whose requests a parameter's schema already refused. */
function restatesSchema(rule: Json, params: Map<string, QueryParam>): boolean {
  const then = obj(rule.then);
  const type = obj(then.problem).type;
  return (
    then.status === 400 &&
    (type === undefined || type === "invalid-parameter") &&
    refusedBySchema(rule.when, params)
  );
}

/** "400 when {...}" (or "400 on every request"): what a refusing rule refuses, for its message. */
function describeRefusal(rule: Json): string {
  const status = obj(rule.then).status;
  return rule.when === undefined
    ? `${status} on every request`
    : `${status} when ${JSON.stringify(rule.when)}`;
}

/** What documents a rule or relation without being part of it: its wording, origin and examples. */
const DOCS = ["summary", "source", "description", "examples"];
const docsOnly = (r: Json) => Object.fromEntries(Object.entries(r).filter(([k]) => DOCS.includes(k)));
/** Which documenting parts differ, for the finding's message ("summary and examples"). */
const docsChanged = (b: Json, h: Json) => DOCS.filter((k) => !same(b[k], h[k])).join(" and ");

/** What a refusing rule tells the client about each parameter: wording, not behaviour. */
const reasonOf = (r: Json) => obj(obj(r.then).problem).reason;

/** The rule without its documentation and its client-facing reason. */
function logic(r: Json): Json {
  const rest = Object.fromEntries(Object.entries(r).filter(([k]) => !DOCS.includes(k)));
  const then = obj(rest.then);
  if (!("problem" in then)) return rest;
  const { reason: _wording, ...problem } = obj(then.problem);
  return { ...rest, then: { ...then, problem } };
}

function compareRule(c: Collector, id: string, b: Json, h: Json, at: At): void {
  if (!same(docsOnly(b), docsOnly(h)))
    c.add("documentation-changed", at, `rule ${id}: ${docsChanged(b, h)} changed`);
  if (!same(reasonOf(b), reasonOf(h)))
    c.add(
      "documentation-changed",
      down(at, "then", "problem"),
      `rule ${id}: the reason given to clients changed`,
    );
  if (same(logic(b), logic(h))) return;

  const retention = retentionChange(b, h);
  if (retention) {
    const [from, to] = retention;
    const rule = to < from ? "retention-lowered" : "retention-raised";
    c.add(rule, down(at, "then", "count", "max"), `rule ${id}: count.max ${from} → ${to}`);
    return;
  }
  if (isOmissionRule(b) && same(b.then, h.then) && !same(b.when, h.when) && sameShape(b.when, h.when)) {
    c.add(
      "omission-threshold-changed",
      down(at, "when"),
      `rule ${id}: when ${JSON.stringify(b.when)} → ${JSON.stringify(h.when)}`,
    );
    return;
  }
  // A refusing rule whose condition gained conjuncts (every old predicate kept) refuses a subset
  // of what it refused: the API accepts more, as when the rule is removed.
  if (refuses(b) && same(logic(b).then, logic(h).then) && conjunctsAdded(b.when, h.when)) {
    c.add(
      "x-conformance-refusal-narrowed",
      down(at, "when"),
      `rule ${id}: refuses only when ${JSON.stringify(h.when)}, was ${JSON.stringify(b.when ?? "every request")}`,
    );
    return;
  }
  const parts = ["when", "then"].filter((k) => !same(b[k], h[k]));
  const what = parts.length ? parts.join(" and ") : "definition";
  c.add("x-conformance-rule-changed", down(at, parts[0] ?? "then"), `rule ${id}: ${what} changed`);
}

/**
 * Whether `h` is `b` with more conditions: every query predicate of `b` is in `h` with the same
 * operands (no `when` matches every request). Only `query` conditions are compared.
 */
function conjunctsAdded(b: unknown, h: unknown): boolean {
  if (!isObject(h) || same(b, h) || Object.keys(h).some((k) => k !== "query") || !isObject(h.query))
    return false;
  if (b === undefined) return true;
  if (!isObject(b) || Object.keys(b).some((k) => k !== "query") || !isObject(b.query)) return false;
  const hq = h.query;
  return Object.entries(b.query).every(([p, pred]) => {
    const hp = hq[p];
    return isObject(pred) && isObject(hp) && Object.entries(pred).every(([k, v]) => same(hp[k], v));
  });
}

/** [base, head] when the only logical change is a fixed number in then.count.max. */
function retentionChange(b: Json, h: Json): [number, number] | undefined {
  const mb = obj(obj(b.then).count).max;
  const mh = obj(obj(h.then).count).max;
  if (typeof mb !== "number" || typeof mh !== "number" || mb === mh) return undefined;
  const strip = (r: Json) => {
    const rest = logic(r);
    return { ...rest, then: { ...obj(rest.then), count: { ...obj(obj(rest.then).count), max: 0 } } };
  };
  return same(strip(b), strip(h)) ? [mb, mh] : undefined;
}

/** A rule that says a field is present or absent depending on a request condition. */
function isOmissionRule(r: Json): boolean {
  const each = obj(obj(r.then).each);
  return r.when !== undefined && (Array.isArray(each.absent) || Array.isArray(each.present));
}

/** Same keys and strings, only numbers differ: a moved bound rather than a new condition. */
function sameShape(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return true;
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return same(ka, kb) && ka.every((k) => sameShape(a[k], b[k]));
  }
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameShape(x, b[i]));
  return same(a, b);
}
