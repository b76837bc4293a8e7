/**
 * The second request of a relation, made from the first by the relation's `vary`: words of the
 * target's data added to a word list (one of each field the list is matched in), a value set,
 * added to or raised to the maximum, the narrowest rank window containing the first's, a
 * parameter left out, or (filled in once the first answer is in) a field of one of its items, the
 * narrowest window holding one of its times, or its last page. A relation crossing to another
 * operation (`to`) starts from the first request's parameters that operation declares too.
 */
import { get } from "../../src/rules/pointer.ts";
import { lastPage, pageSizeOf } from "../../src/rules/relations.ts";
import type { Relation, Variation } from "../../src/rules/types.ts";
import { narrowestWindow, windowRange } from "../../src/rules/windows.ts";
import { splitWords } from "../../src/rules/words.ts";
import { type ParsedRequest, parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Vocabulary } from "../arbitraries/vocabulary.ts";
import type { FromFirst, RequestCase } from "../types.ts";

export interface Varied {
  request: RequestCase;
  /** Parameters to fill from the first answer: param → how. */
  fromFirst: Record<string, FromFirst>;
}

/** The fields a word-list parameter is matched in: by the relation's filters, else the operation's rules. */
function matchedFields(op: Operation, relation: Relation, param: string): string[] {
  const filters = [relation.expect.superset, relation.expect.subset].flatMap((f) =>
    f && f !== true && f.matches?.param === param ? [f.matches.fields] : [],
  );
  const rules = op.rules.flatMap((r) =>
    r.then.each?.matches?.param === param ? [r.then.each.matches.fields] : [],
  );
  return [...new Set([...filters, ...rules].flat())];
}

/**
 * New words for a word list: one of each field it is matched in (so that matching a field less
 * shows), none a word list of the request holds already (a block word equal to q would block
 * everything). Without words per field: activity words where records have names, else title words.
 */
function newWords(
  op: Operation,
  relation: Relation,
  param: string,
  taken: string[],
  vocab: Vocabulary,
): string[] {
  const fields = matchedFields(op, relation, param);
  const chosen: string[] = [];
  for (const field of fields) {
    const word = (vocab.fieldWords[field] ?? []).find((w) => !taken.includes(w) && !chosen.includes(w));
    if (word) chosen.push(word);
  }
  if (chosen.length > 0) return chosen;
  const fallback = (fields.includes("name") ? vocab.activityWords : vocab.words).find(
    (w) => !taken.includes(w),
  );
  return fallback ? [fallback] : [];
}

/** The narrowest rank window that contains `act`'s window now (and is not `act`). */
export function widerWindow(spec: Spec, act: string, now: number): string | undefined {
  const span = (a: string) => windowRange(spec.rankWindows, a, now);
  const own = span(act);
  return Object.keys(spec.rankWindows.windows)
    .filter((a) => a !== act && span(a).from <= own.from && span(a).to >= own.to)
    .sort((x, y) => span(y).from - span(x).from)[0];
}

/** The page size of a request: the least cap its operation's count rules allow. */
function pageSize(spec: Spec, op: Operation, parsed: ParsedRequest): number | undefined {
  return pageSizeOf(spec, {
    operation: op,
    request: parsed,
    status: 200,
    body: undefined,
    sentAt: 0,
    receivedAt: 0,
  });
}

type Value = { value: string } | { fromFirst: FromFirst } | "removed" | "impossible";

function varied(
  spec: Spec,
  op: Operation,
  relation: Relation,
  name: string,
  v: Variation,
  parsed: ParsedRequest,
  vocab: Vocabulary,
): Value {
  const param = op.parameters.find((p) => p.name === name);
  const raw = parsed.raw[name];
  const effective = parsed.values[name];
  if ("addWord" in v) {
    const syntax = param?.words;
    if (!syntax) return "impossible";
    const have = raw ? splitWords(raw, syntax) : [];
    const taken = op.parameters.flatMap((p) =>
      p.words && parsed.raw[p.name] ? splitWords(parsed.raw[p.name] ?? "", p.words) : [],
    );
    const words = newWords(op, relation, name, taken, vocab);
    if (words.length === 0) return "impossible";
    // First: an implementation that searches only the first word shows it.
    const sep = syntax.separators.find((s) => s.trim() !== "") ?? "|";
    return { value: [...words, ...(have.length ? [raw] : [])].join(sep) };
  }
  if ("set" in v) return { value: String(v.set) };
  if ("add" in v) return typeof effective === "number" ? { value: String(effective + v.add) } : "impossible";
  if ("max" in v)
    return param?.schema.maximum !== undefined ? { value: String(param.schema.maximum) } : "impossible";
  if ("widerWindow" in v) {
    const wider = typeof effective === "string" ? widerWindow(spec, effective, Date.now() / 1000) : undefined;
    return wider ? { value: wider } : "impossible";
  }
  if ("remove" in v) return "removed";
  const how = takenFromFirst(spec, op, v, parsed);
  return how === undefined ? "impossible" : { fromFirst: how };
}

/**
 * How a variation known only once the first answer is in takes its value from it (`fromItem`,
 * `windowOf`, `last` and `afterLast` at the first request's page size on `op`); undefined for the
 * others, and for `last` and `afterLast` when `op` has no page size.
 */
export function takenFromFirst(
  spec: Spec,
  op: Operation,
  v: Variation,
  parsed: ParsedRequest,
): FromFirst | undefined {
  if ("fromItem" in v) return v.fromItem;
  if ("windowOf" in v) return { windowOf: v.windowOf };
  if ("last" in v || "afterLast" in v) {
    const size = pageSize(spec, op, parsed);
    if (!size) return undefined;
    return { lastPage: "afterLast" in v ? { size, after: 1 } : { size } };
  }
  return undefined;
}

/** The first request's parameters that `target` declares too (path or query), by name, as given. */
export function carriedParameters(target: Operation, parsed: ParsedRequest): Map<string, string> {
  return new Map(
    target.parameters.flatMap((p) => {
      const raw = parsed.raw[p.name];
      return raw !== undefined && p.in !== "header" ? [[p.name, raw] as const] : [];
    }),
  );
}

/** The pathname of `target` with its path parameters taken from `values` (undefined: one is missing). */
function pathOf(target: Operation, values: Map<string, string>): string | undefined {
  let missing = false;
  const path = target.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? "");
  });
  return missing ? undefined : path;
}

/** The second request, or undefined when the variation cannot apply (no other word, already the maximum). */
export function varyRequest(
  spec: Spec,
  op: Operation,
  relation: Relation,
  base: RequestCase,
  vocab: Vocabulary,
): Varied | undefined {
  const parsed = parseRequest(
    spec,
    op,
    new URLSearchParams(base.query),
    spec.match(base.pathname)?.pathParams,
  );
  const target = relation.to ? spec.operation(relation.to.operation) : op;
  // Across operations: what both declare, as the first request gave it.
  const values = relation.to ? carriedParameters(target, parsed) : new Map<string, string>(base.query);
  const fromFirst: Record<string, FromFirst> = {};
  for (const [name, v] of Object.entries(relation.vary)) {
    const value = varied(spec, target, relation, name, v, parsed, vocab);
    if (value === "impossible") return undefined;
    values.delete(name);
    if (value === "removed") continue;
    if ("fromFirst" in value) {
      fromFirst[name] = value.fromFirst;
      values.set(name, `{${name}}`);
    } else values.set(name, value.value);
  }
  const pathname = relation.to ? pathOf(target, values) : base.pathname;
  if (pathname === undefined) return undefined;
  const inPath = new Set(target.parameters.filter((p) => p.in === "path").map((p) => p.name));
  const query = [...values].filter(([k]) => !relation.to || !inPath.has(k));
  const same = !relation.to && JSON.stringify([...query].sort()) === JSON.stringify([...base.query].sort());
  // Values taken from the first answer are only known then: the rest must already be valid.
  const check = new URLSearchParams(query.filter(([k]) => !fromFirst[k]));
  const errors = parseRequest(spec, target, check, spec.match(pathname)?.pathParams).errors;
  if (same || errors.some((e) => fromFirst[e.name] === undefined)) return undefined;
  return {
    request: {
      ...base,
      operationId: target.operationId,
      pathname,
      query,
      label: `relation:${relation.id} second`,
    },
    fromFirst,
  };
}

/**
 * A later request with the parameters it takes from the first answer filled in (undefined: the
 * answer does not hold what they take: no item carrying the fields, no total).
 */
export function fillFromFirst(
  spec: Spec,
  from: { at: string; params: Record<string, FromFirst> },
  request: RequestCase,
  first: { body: unknown; sentAt: number } | undefined,
): RequestCase | undefined {
  const data = get(first?.body, from.at);
  const fields = Object.values(from.params).flatMap((f) =>
    typeof f === "string" ? [f] : "windowOf" in f ? [f.windowOf] : [],
  );
  const item = (Array.isArray(data) ? data : []).find(
    (i) =>
      i !== null && typeof i === "object" && fields.every((f) => (i as Record<string, unknown>)[f] != null),
  ) as Record<string, unknown> | undefined;
  const fill = (how: FromFirst): string | undefined => {
    if (typeof how === "string") return item ? String(item[how]) : undefined;
    if ("windowOf" in how) {
      const t = item?.[how.windowOf];
      return typeof t === "number" && first ? narrowestWindow(spec.rankWindows, t, first.sentAt) : undefined;
    }
    const total = get(first?.body, "/meta/total");
    return typeof total === "number"
      ? String(lastPage(total, how.lastPage.size) + (how.lastPage.after ?? 0))
      : undefined;
  };
  const query: [string, string][] = [];
  for (const [k, v] of request.query) {
    const how = from.params[k];
    const value = how === undefined ? v : fill(how);
    if (value === undefined) return undefined;
    query.push([k, value]);
  }
  return { ...request, query };
}
