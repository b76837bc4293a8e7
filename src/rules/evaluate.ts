import type { ParsedRequest } from "../spec/request.ts";
import type { Spec } from "../spec/spec.ts";
import type { Operation } from "../spec/types.ts";
import { compareDecimal, decimalText } from "./decimal.ts";
import { compareValues } from "./order.ts";
import { collect, get, has, join } from "./pointer.ts";
import type {
  Condition,
  EachExpectation,
  Expectation,
  ItemFilter,
  Mirror,
  Operand,
  Predicate,
  Rule,
} from "./types.ts";
import { localStamp, windowRange } from "./windows.ts";
import { containsWord, splitWords } from "./words.ts";

/** What one request/response pair looked like, as the rule engine needs it. */
export interface RuleExchange {
  operation: Operation;
  request: ParsedRequest;
  credentials?: "valid" | "invalid";
  status: number;
  /** Media type without parameters, lower-case. */
  mediaType?: string;
  /** Parsed JSON body, or the text when it is not JSON. */
  body: unknown;
  /** Unix seconds when the request left and when the answer came back (rank windows). */
  sentAt: number;
  receivedAt: number;
}

export interface RuleFailure {
  ruleId: string;
  message: string;
  pointer?: string;
  received?: unknown;
  documented?: unknown;
}

export interface RuleOptions {
  /** Clock skew allowed between client and server when judging rank windows. */
  toleranceSeconds?: number;
  /** At most this many failures are reported per rule and exchange. */
  maxFailures?: number;
}

interface PredicateContext {
  spec: Spec;
  operation: Operation;
  request: ParsedRequest;
  exchange?: RuleExchange;
  toleranceSeconds: number;
}

/** True when a rule's `when` holds for a request (no `when` always holds). */
export function conditionHolds(
  spec: Spec,
  operation: Operation,
  condition: Condition | undefined,
  request: ParsedRequest,
  credentials?: "valid" | "invalid",
): boolean {
  if (!condition) return true;
  const ctx: PredicateContext = { spec, operation, request, toleranceSeconds: 0 };
  if (condition.credentials !== undefined && condition.credentials !== credentials) return false;
  for (const [name, predicate] of Object.entries(condition.query ?? {})) {
    if (!queryPredicateHolds(ctx, name, predicate)) return false;
  }
  if (
    condition.anyOf &&
    !condition.anyOf.some((c) => conditionHolds(spec, operation, c, request, credentials))
  ) {
    return false;
  }
  return true;
}

/**
 * The rules that refuse this request before any data is read: those whose `then` demands a
 * 4xx and whose `when` holds on the query alone. Servers and mocks answer with the first.
 */
export function refusingRules(spec: Spec, operation: Operation, request: ParsedRequest): Rule[] {
  return operation.rules.filter(
    (rule) =>
      rule.then.status !== undefined &&
      rule.then.status >= 400 &&
      rule.when?.credentials === undefined &&
      conditionHolds(spec, operation, rule.when, request),
  );
}

/** Judges one exchange against one rule. Rules whose `when` does not hold give no failure. */
export function checkRule(
  spec: Spec,
  rule: Rule,
  exchange: RuleExchange,
  options: RuleOptions = {},
): RuleFailure[] {
  const { operation, request } = exchange;
  if (!conditionHolds(spec, operation, rule.when, request, exchange.credentials)) return [];
  const then = rule.then;
  // Refusing rules come first: a request one of them refuses is not judged by the rules about
  // served answers (cate=douban&mip=2&mxp=1 is refused for mip > mxp, not served empty).
  const refusing = then.status !== undefined && then.status >= 400;
  if (!refusing && refusingRules(spec, operation, request).length > 0) return [];
  const fail = (message: string, extra: Partial<RuleFailure> = {}): RuleFailure => ({
    ruleId: rule.id,
    message,
    ...extra,
  });
  if (then.status !== undefined) {
    if (exchange.status !== then.status) {
      return [fail(`expected status ${then.status}`, { received: exchange.status, documented: then.status })];
    }
  } else if (exchange.status < 200 || exchange.status > 299) {
    return [];
  }
  const ctx: PredicateContext = {
    spec,
    operation,
    request,
    exchange,
    toleranceSeconds: options.toleranceSeconds ?? 5,
  };
  const failures = [
    ...checkProblem(then, exchange, fail),
    ...checkPointers(then, exchange.body, fail),
    ...checkCount(ctx, then, fail),
    ...(then.each ? checkEach(ctx, then.each, fail) : []),
    ...checkOrder(then, exchange.body, fail),
    ...(then.mirrors ?? []).flatMap((m) => checkMirror(spec, m, exchange.body, fail)),
  ];
  return failures.slice(0, options.maxFailures ?? 5);
}

type Fail = (message: string, extra?: Partial<RuleFailure>) => RuleFailure;

function checkProblem(then: Expectation, exchange: RuleExchange, fail: Fail): RuleFailure[] {
  if (!then.problem) return [];
  const out: RuleFailure[] = [];
  if (exchange.mediaType !== "application/problem+json") {
    out.push(fail("expected an application/problem+json body", { received: exchange.mediaType }));
  }
  const body = exchange.body as { type?: unknown; errors?: { name?: unknown }[] } | undefined;
  if (then.problem.type !== undefined) {
    const documented = `/problems/${then.problem.type}`;
    if (body?.type !== documented) out.push(fail("wrong problem type", { received: body?.type, documented }));
  }
  const named = Array.isArray(body?.errors) ? body.errors.map((e) => e?.name) : [];
  if (!then.problem.params.some((p) => named.includes(p))) {
    out.push(
      fail(`the problem must name one of ${then.problem.params.join(", ")} in errors[].name`, {
        pointer: "/errors",
        received: named,
        documented: then.problem.params,
      }),
    );
  }
  return out;
}

function checkPointers(then: Expectation, body: unknown, fail: Fail): RuleFailure[] {
  const out: RuleFailure[] = [];
  for (const p of then.present ?? [])
    if (!has(body, p)) out.push(fail(`${p} must be present`, { pointer: p }));
  for (const p of then.absent ?? []) {
    if (has(body, p)) out.push(fail(`${p} must be absent`, { pointer: p, received: get(body, p) }));
  }
  if (then.empty !== undefined) {
    const value = get(body, then.empty);
    if (!Array.isArray(value) || value.length > 0) {
      out.push(fail(`${then.empty} must be an empty array`, { pointer: then.empty, received: value }));
    }
  }
  return out;
}

function checkCount(ctx: PredicateContext, then: Expectation, fail: Fail): RuleFailure[] {
  if (!then.count) return [];
  const value = get(ctx.exchange?.body, then.count.at);
  if (!Array.isArray(value)) return [fail(`${then.count.at || "the body"} must be an array`)];
  const max = resolve(ctx, then.count.max);
  if (typeof max === "number" && value.length > max) {
    return [
      fail(`at most ${max} items allowed`, {
        pointer: then.count.at,
        received: value.length,
        documented: max,
      }),
    ];
  }
  return [];
}

function checkEach(ctx: PredicateContext, each: EachExpectation, fail: Fail): RuleFailure[] {
  const items = get(ctx.exchange?.body, each.at);
  if (!Array.isArray(items)) return [fail(`${each.at || "the body"} must be an array`, { pointer: each.at })];
  const out: RuleFailure[] = [];
  items.forEach((item, i) => {
    if (item === null || typeof item !== "object") return;
    const record = item as Record<string, unknown>;
    const at = join(each.at, i);
    if (
      each.where &&
      !Object.entries(each.where).every(([f, p]) => predicateHolds(ctx, record[f], p, undefined, record))
    )
      return;
    for (const f of each.present ?? []) {
      if (!Object.hasOwn(record, f)) out.push(fail(`item must carry ${f}`, { pointer: at }));
    }
    for (const f of each.absent ?? []) {
      if (Object.hasOwn(record, f))
        out.push(fail(`item must not carry ${f}`, { pointer: join(at, f), received: record[f] }));
    }
    for (const [f, p] of Object.entries(each.fields ?? {})) {
      if (!predicateHolds(ctx, record[f], p, undefined, record)) {
        out.push(
          fail(`${f} breaks ${describePredicate(ctx, p)}`, {
            pointer: join(at, f),
            received: record[f],
            documented: expectedLocal(ctx, p, record),
          }),
        );
      }
    }
    if (each.matches && !matchesHold(ctx, record, each.matches)) {
      const { param, mode, fields } = each.matches;
      const verb = mode === "any" ? "must contain a word of" : "must contain no word of";
      out.push(
        fail(`${fields.join("/")} ${verb} ${param}`, {
          pointer: at,
          received: fields.map((f) => record[f]),
          documented: ctx.request.raw[param],
        }),
      );
    }
  });
  return out;
}

/** The items an `each` expectation judges on this answer: those at `at` that satisfy `where`. */
export function judgedItems(
  spec: Spec,
  each: EachExpectation,
  exchange: RuleExchange,
): Record<string, unknown>[] {
  const items = get(exchange.body, each.at);
  if (!Array.isArray(items)) return [];
  const ctx: PredicateContext = { ...contextOf(spec, exchange), toleranceSeconds: 5 };
  return items.filter(
    (item): item is Record<string, unknown> =>
      item !== null &&
      typeof item === "object" &&
      Object.entries(each.where ?? {}).every(([f, p]) =>
        predicateHolds(
          ctx,
          (item as Record<string, unknown>)[f],
          p,
          undefined,
          item as Record<string, unknown>,
        ),
      ),
  );
}

/**
 * True when an item passes a relation's item filter, read with this exchange's request. The
 * filter chooses what an answer owes, so a time is read strictly: inside the window however the
 * clocks differ (a negative tolerance), never owed for being near its edge.
 */
export function itemPasses(
  spec: Spec,
  filter: ItemFilter,
  exchange: RuleExchange,
  item: Record<string, unknown>,
): boolean {
  const ctx: PredicateContext = { ...contextOf(spec, exchange), toleranceSeconds: -5 };
  if (
    filter.where &&
    !Object.entries(filter.where).every(([f, p]) => predicateHolds(ctx, item[f], p, undefined, item))
  )
    return false;
  return !filter.matches || matchesHold(ctx, item, filter.matches);
}

/** The cap of a `count` expectation for this request (undefined when its parameter is absent without default). */
export function countCap(spec: Spec, then: Expectation, exchange: RuleExchange): number | undefined {
  if (!then.count) return undefined;
  const max = resolve({ ...contextOf(spec, exchange), toleranceSeconds: 5 }, then.count.max);
  return typeof max === "number" ? max : undefined;
}

function contextOf(spec: Spec, exchange: RuleExchange): Omit<PredicateContext, "toleranceSeconds"> {
  return { spec, operation: exchange.operation, request: exchange.request, exchange };
}

function checkOrder(then: Expectation, body: unknown, fail: Fail): RuleFailure[] {
  if (!then.order) return [];
  const items = get(body, then.order.at);
  if (!Array.isArray(items)) return [];
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1] as Record<string, unknown>;
    const b = items[i] as Record<string, unknown>;
    for (const { field, direction } of then.order.by) {
      const d = compareValues(a?.[field], b?.[field]);
      if (d === 0) continue;
      if (direction === "desc" ? d < 0 : d > 0) {
        const by = then.order.by.map((o) => `${o.field} ${o.direction}`).join(", ");
        const received = [a?.[field], b?.[field]];
        return [fail(`items must be ordered by ${by}`, { pointer: join(then.order.at, i), received })];
      }
      break;
    }
  }
  return [];
}

function checkMirror(spec: Spec, mirror: Mirror, body: unknown, fail: Fail): RuleFailure[] {
  const received = flatten(collect(body, mirror.at));
  const documented = "set" in mirror ? [...spec.set(mirror.set)] : flatten(collect(spec.doc, mirror.spec));
  const a = new Set(received.map(String));
  const b = new Set(documented.map(String));
  const same = a.size === b.size && [...a].every((v) => b.has(v)) && received.length === documented.length;
  return same
    ? []
    : [
        fail(`${mirror.at} must mirror the spec${mirrorDifference(a, b)}`, {
          pointer: mirror.at,
          received,
          documented,
        }),
      ];
}

/**
 * The values that differ, in the finding's title: a manifest stating a limit of 120 where the
 * spec says 60 reads "(120 where the spec has 60)", not only in the Received/Documented lists.
 */
function mirrorDifference(received: Set<string>, documented: Set<string>): string {
  const few = (values: string[]) =>
    values.length > 3 ? `${values.slice(0, 3).join(", ")} and ${values.length - 3} more` : values.join(", ");
  const extra = [...received].filter((v) => !documented.has(v));
  const missing = [...documented].filter((v) => !received.has(v));
  if (extra.length > 0 && missing.length > 0) return ` (${few(extra)} where the spec has ${few(missing)})`;
  if (extra.length > 0) return ` (${few(extra)} not in the spec)`;
  if (missing.length > 0) return ` (${few(missing)} missing)`;
  return " (a value repeated)";
}

/** A pointer that lands on an array stands for its items. */
function flatten(values: unknown[]): unknown[] {
  return values.length === 1 && Array.isArray(values[0]) ? values[0] : values;
}

function matchesHold(
  ctx: PredicateContext,
  record: Record<string, unknown>,
  matches: NonNullable<EachExpectation["matches"]>,
): boolean {
  const raw = ctx.request.raw[matches.param];
  const syntax = ctx.operation.parameters.find((p) => p.name === matches.param)?.words;
  if (raw === undefined || !syntax) return true;
  const words = splitWords(raw, syntax);
  if (words.length === 0) return true;
  const texts = matches.fields.map((f) => record[f]).filter((t): t is string => typeof t === "string");
  const hit = words.some((w) => texts.some((t) => containsWord(t, w)));
  return matches.mode === "any" ? hit : !hit;
}

const UNRESOLVED = Symbol("unresolved");
const UNREADABLE = Symbol("unreadable");

/**
 * A literal, or another parameter's effective value; UNRESOLVED when that parameter is absent (no
 * bound), UNREADABLE when it was given but could not be read ("mxp=abc"): nothing compares with
 * it, so a rule comparing with it does not hold (the parameter's own error says what is wrong).
 */
function resolve(ctx: PredicateContext, operand: Operand): unknown {
  if (typeof operand === "object" && operand !== null) {
    const v = ctx.request.values[operand.param];
    if (v !== undefined) return v;
    return ctx.request.raw[operand.param] === undefined ? UNRESOLVED : UNREADABLE;
  }
  return operand;
}

function queryPredicateHolds(ctx: PredicateContext, name: string, p: Predicate): boolean {
  const raw = ctx.request.raw[name];
  if (p.present !== undefined && (raw !== undefined) !== p.present) return false;
  if (p.blank !== undefined && isBlank(ctx, name, raw) !== p.blank) return false;
  const value = ctx.request.values[name];
  // A decimal parameter compares as written (mip=9.9000000000000000001 is more than mxp=9.9).
  const written = raw !== undefined && typeof value === "number" && DECIMAL.test(raw) ? raw : undefined;
  return predicateHolds(ctx, value, { ...p, present: undefined, blank: undefined }, written);
}

function isBlank(ctx: PredicateContext, name: string, raw: string | undefined): boolean {
  if (raw === undefined) return true;
  // Only word lists can be blank when given: "mip= " is an invalid number, not a missing one.
  const syntax = ctx.operation.parameters.find((p) => p.name === name)?.words;
  return syntax ? splitWords(raw, syntax).length === 0 : false;
}

/**
 * A comparison against an absent parameter holds vacuously (no bound); a missing value fails
 * every comparison except `ne` and `notInSet`.
 */
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** `item` is the record holding `value` (item fields), which `localTime` reads its timestamp from. */
function predicateHolds(
  ctx: PredicateContext,
  value: unknown,
  p: Predicate,
  valueWritten?: string,
  item?: Record<string, unknown>,
): boolean {
  const cmp = (operand: Operand | undefined, test: (a: number, b: number) => boolean): boolean => {
    if (operand === undefined) return true;
    // A decimal parameter (a price bound) compares exactly, as written, never as a binary double.
    const written =
      typeof operand === "object" && operand !== null ? ctx.request.raw[operand.param] : undefined;
    if (written !== undefined && DECIMAL.test(written) && typeof value === "number" && value >= 0)
      return test(compareDecimal(valueWritten ?? decimalText(value), written), 0);
    const b = resolve(ctx, operand);
    if (b === UNRESOLVED) return true;
    return b !== UNREADABLE && typeof value === "number" && test(value, Number(b));
  };
  const same = (operand: Operand): boolean => {
    const b = resolve(ctx, operand);
    return b === UNRESOLVED || (b !== UNREADABLE && value !== undefined && String(value) === String(b));
  };
  if (p.present !== undefined && (value !== undefined) !== p.present) return false;
  if (p.eq !== undefined && !same(p.eq)) return false;
  if (p.ne !== undefined && value !== undefined && same(p.ne)) return false;
  if (!cmp(p.lt, (a, b) => a < b) || !cmp(p.lte, (a, b) => a <= b)) return false;
  if (!cmp(p.gt, (a, b) => a > b) || !cmp(p.gte, (a, b) => a >= b)) return false;
  if (p.in && !p.in.map(String).includes(String(value))) return false;
  if (p.inSet && (value === undefined || !ctx.spec.set(p.inSet).has(String(value)))) return false;
  if (p.notInSet && value !== undefined && ctx.spec.set(p.notInSet).has(String(value))) return false;
  if (p.sameCategory) {
    const ref = ctx.request.values[p.sameCategory.param];
    if (ref !== undefined && ref !== ctx.spec.categories.all_alias) {
      if (String(value) !== ctx.spec.category(String(ref))?.id) return false;
    }
  }
  if (p.inWindow && !inWindow(ctx, value, p.inWindow.param)) return false;
  if (p.localTime && item && !localTimeHolds(ctx, value, p.localTime, item)) return false;
  return true;
}

/** What a `localTime` predicate expected of this item, for the finding (undefined otherwise). */
function expectedLocal(
  ctx: PredicateContext,
  p: Predicate,
  item: Record<string, unknown>,
): string | undefined {
  const t = p.localTime && item[p.localTime.of];
  if (!p.localTime || typeof t !== "number" || !Number.isFinite(t)) return undefined;
  return localStamp(t, ctx.spec.rankWindows.timezone, p.localTime.format);
}

/**
 * A local date or time agrees with the item's timestamp in the contract's zone (x-rank-windows):
 * a server writing them in its host's zone (UTC) keeps a right timestamp and wrong wall clocks.
 * A timestamp that is not a number leaves nothing to agree with (the schema says what is wrong).
 */
function localTimeHolds(
  ctx: PredicateContext,
  value: unknown,
  p: NonNullable<Predicate["localTime"]>,
  item: Record<string, unknown>,
): boolean {
  const t = item[p.of];
  if (typeof t !== "number" || !Number.isFinite(t)) return true;
  return typeof value === "string" && value === localStamp(t, ctx.spec.rankWindows.timezone, p.format);
}

function inWindow(ctx: PredicateContext, value: unknown, param: string): boolean {
  const act = ctx.request.values[param];
  const exchange = ctx.exchange;
  if (typeof act !== "string" || !exchange) return true;
  if (typeof value !== "number") return false;
  const tol = ctx.toleranceSeconds;
  const inside = (now: number) => {
    const { from, to } = windowRange(ctx.spec.rankWindows, act, now);
    return value >= from - tol && value <= to + tol;
  };
  // Lenient (tolerance >= 0): inside at some instant the answer may have been computed; strict: at every one.
  const instants = [exchange.sentAt, exchange.receivedAt];
  return tol >= 0 ? instants.some(inside) : instants.every(inside);
}

function describePredicate(ctx: PredicateContext, p: Predicate): string {
  const show = (o: Operand) =>
    typeof o === "object" ? `${o.param}=${String(ctx.request.values[o.param])}` : String(o);
  const parts: string[] = [];
  if (p.eq !== undefined) parts.push(`= ${show(p.eq)}`);
  if (p.ne !== undefined) parts.push(`≠ ${show(p.ne)}`);
  if (p.gte !== undefined) parts.push(`>= ${show(p.gte)}`);
  if (p.gt !== undefined) parts.push(`> ${show(p.gt)}`);
  if (p.lte !== undefined) parts.push(`<= ${show(p.lte)}`);
  if (p.lt !== undefined) parts.push(`< ${show(p.lt)}`);
  if (p.inWindow) parts.push(`inside the window of ${show(p.inWindow)}`);
  if (p.sameCategory) parts.push(`the category ${show(p.sameCategory)}`);
  if (p.localTime) {
    const zone = ctx.spec.rankWindows.timezone;
    parts.push(`the local ${p.localTime.format} of ${p.localTime.of} in ${zone}`);
  }
  if (p.inSet) parts.push(`in ${p.inSet}`);
  return parts.join(" and ") || "the predicate";
}
