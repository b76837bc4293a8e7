/**
 * Requests planned from each x-conformance rule's `when`: one where the condition holds (per
 * `anyOf` branch), and one per predicate where just that predicate is broken, so every rule is
 * exercised on both sides of each bound (limit 50 and 51 for `lte: 50`, blank and non-blank
 * words, an unpriced and a priced category...). A planned case that another rule would refuse
 * (a search without criterion) is repaired by breaking that rule's condition on a parameter the
 * planned rule does not constrain.
 */
import { conditionHolds, refusingRules } from "../../src/rules/evaluate.ts";
import type { Condition, Operand, Predicate, Rule } from "../../src/rules/types.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation, Parameter } from "../../src/spec/types.ts";
import type { Credentials, RequestCase } from "../types.ts";
import { baseValues } from "./boundaries.ts";
import { exampleValue } from "./params.ts";
import { type Account, buildCase } from "./requests.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** undefined = do not send the parameter. */
type Value = string | undefined;

interface Planner {
  spec: Spec;
  op: Operation;
  vocab: Vocabulary;
}

const literal = (o: Operand | undefined): o is string | number | boolean =>
  o !== undefined && typeof o !== "object";

function param(pl: Planner, name: string): Parameter | undefined {
  return pl.op.parameters.find((p) => p.name === name);
}

function inRange(p: Parameter | undefined, n: number): boolean {
  const s = p?.schema;
  return n >= (s?.minimum ?? Number.NEGATIVE_INFINITY) && n <= (s?.maximum ?? Number.POSITIVE_INFINITY);
}

/** Values of `name` that satisfy (`want` true) or break (`want` false) one predicate. */
function valuesFor(
  pl: Planner,
  name: string,
  pred: Predicate,
  want: boolean,
  values: Record<string, string>,
): Value[] {
  const p = param(pl, name);
  const example = p ? exampleValue(p, pl.vocab) : "x";
  const enumValues = (p?.schema.enum ?? []).map(String);
  const out: Value[] = [];
  if (pred.present !== undefined) out.push(pred.present === want ? example : undefined);
  if (pred.blank !== undefined) {
    // Only word lists have a blank form beyond the empty value: separators alone.
    const blanks: Value[] = p?.words ? ["", "|#", undefined] : ["", undefined];
    out.push(...(pred.blank === want ? blanks : [p?.words ? (pl.vocab.words[0] ?? "京东") : example]));
  }
  if (pred.eq !== undefined && literal(pred.eq)) {
    out.push(want ? String(pred.eq) : (enumValues.find((v) => v !== String(pred.eq)) ?? undefined));
  }
  if (pred.ne !== undefined && literal(pred.ne)) {
    out.push(
      want ? (enumValues.find((v) => v !== String(pred.ne)) ?? `${String(pred.ne)}x`) : String(pred.ne),
    );
  }
  for (const [op, delta] of [
    ["lt", -1],
    ["lte", 0],
    ["gt", 1],
    ["gte", 0],
  ] as const) {
    const operand = pred[op];
    if (operand === undefined) continue;
    const other = typeof operand === "object" ? values[operand.param] : String(operand);
    if (other === undefined) continue;
    const b = Number(other);
    const holds = [b + delta, op === "lt" || op === "lte" ? b - 1 : b + 1];
    const breaks = op === "lt" ? [b] : op === "lte" ? [b + 1] : op === "gt" ? [b] : [b - 1];
    out.push(...(want ? holds : breaks).filter((n) => inRange(p, n)).map(String));
  }
  const setMembers = (set: string) => [...pl.spec.set(set)];
  const complement = (set: string) =>
    enumValues.filter((v) => !pl.spec.set(set).has(v) && v !== pl.spec.categories.all_alias);
  if (pred.inSet)
    out.push(...(want ? setMembers(pred.inSet).slice(0, 2) : complement(pred.inSet).slice(0, 1)));
  if (pred.notInSet)
    out.push(...(want ? complement(pred.notInSet).slice(0, 1) : setMembers(pred.notInSet).slice(0, 1)));
  if (pred.in)
    out.push(
      ...(want ? pred.in.map(String) : [enumValues.find((v) => !pred.in?.map(String).includes(v)) ?? "nope"]),
    );
  return out.length > 0 ? out : [want ? example : undefined];
}

/** Literal-operand parameters first, so a `{ param }` operand finds its value already set. */
function ordered(query: Record<string, Predicate>): [string, Predicate][] {
  const relative = (p: Predicate) =>
    Object.values(p).some((o) => typeof o === "object" && o !== null && "param" in o);
  return Object.entries(query).sort(([, a], [, b]) => Number(relative(a)) - Number(relative(b)));
}

function apply(values: Record<string, string>, name: string, v: Value): Record<string, string> {
  const next = { ...values };
  if (v === undefined) delete next[name];
  else next[name] = v;
  return next;
}

/** The engine is the oracle: does this one predicate hold for these values? */
function holdsFor(pl: Planner, values: Record<string, string>, name: string, pred: Predicate): boolean {
  const parsed = parseRequest(pl.spec, pl.op, new URLSearchParams(Object.entries(values)));
  return conditionHolds(pl.spec, pl.op, { query: { [name]: pred } }, parsed);
}

/** Candidate values of `name` that really satisfy (or break) the predicate, given the other values. */
function candidates(
  pl: Planner,
  name: string,
  pred: Predicate,
  want: boolean,
  values: Record<string, string>,
): Value[] {
  const all = [...new Set(valuesFor(pl, name, pred, want, values))];
  return all.filter((v) => holdsFor(pl, apply(values, name, v), name, pred) === want);
}

/** Assignments (one per anyOf branch) under which the condition holds. */
function holding(pl: Planner, cond: Condition, start: Record<string, string>): Record<string, string>[] {
  let values = { ...start };
  for (const [name, pred] of ordered(cond.query ?? {})) {
    const found = candidates(pl, name, pred, true, values);
    if (found.length > 0) values = apply(values, name, found[0]);
  }
  if (!cond.anyOf?.length) return [values];
  return cond.anyOf.flatMap((branch) => holding(pl, branch, values));
}

/** Condition-holding assignments, plus each with one predicate broken (every breaking value). */
function plan(
  pl: Planner,
  cond: Condition,
  base: Record<string, string>,
): { values: Record<string, string>; holds: boolean }[] {
  const out: { values: Record<string, string>; holds: boolean }[] = [];
  for (const values of holding(pl, cond, base)) {
    out.push({ values, holds: true });
    for (const [name, pred] of Object.entries(cond.query ?? {})) {
      for (const v of candidates(pl, name, pred, true, values).slice(1))
        out.push({ values: apply(values, name, v), holds: true });
      for (const v of candidates(pl, name, pred, false, values))
        out.push({ values: apply(values, name, v), holds: false });
    }
  }
  return out;
}

/** Assignments (one per anyOf branch) under which a rule's condition holds, starting from `base`. */
export function holdingValues(
  spec: Spec,
  op: Operation,
  vocab: Vocabulary,
  rule: Rule,
  base: Record<string, string>,
): Record<string, string>[] {
  return holding({ spec, op, vocab }, rule.when ?? {}, base).map((values) =>
    repair({ spec, op, vocab }, rule, values),
  );
}

/** Breaks the condition of another rule that would refuse this request, on a free parameter. */
function repair(pl: Planner, target: Rule, values: Record<string, string>): Record<string, string> {
  const constrained = new Set(Object.keys(target.when?.query ?? {}));
  for (const b of target.when?.anyOf ?? []) for (const k of Object.keys(b.query ?? {})) constrained.add(k);
  let current = values;
  for (let i = 0; i < 3; i++) {
    const parsed = parseRequest(pl.spec, pl.op, new URLSearchParams(Object.entries(current)));
    const other = refusingRules(pl.spec, pl.op, parsed).find((r) => r.id !== target.id);
    if (!other) return current;
    const free = Object.entries(other.when?.query ?? {}).find(([name]) => !constrained.has(name));
    if (!free) return current;
    const [name, pred] = free;
    current = apply(
      current,
      name,
      candidates(pl, name, pred, false, current)[0] ?? valuesFor(pl, name, pred, false, current)[0],
    );
  }
  return current;
}

/** The planned cases of every rule of an operation, labelled `rule:<id>` (holds) or `rule:<id>!` (broken). */
export function ruleCases(spec: Spec, op: Operation, vocab: Vocabulary, account?: Account): RequestCase[] {
  const pl: Planner = { spec, op, vocab };
  const credentials: Credentials | undefined = op.secured ? (account ? "valid" : "invalid") : undefined;
  const seen = new Set<string>();
  const cases: RequestCase[] = [];
  for (const rule of op.rules) {
    if (!rule.when?.query && !rule.when?.anyOf && typeof rule.then.count?.max !== "number") continue;
    const planned = plan(pl, rule.when ?? {}, baseValues(op, vocab));
    // A fixed count cap (retention: 20, 30, 50) is only tested by asking for more than it.
    const cap = rule.then.count?.max;
    if (typeof cap === "number") {
      const stretch = op.parameters.filter(
        (p) => p.schema.type === "integer" && (p.schema.maximum ?? 0) > cap,
      );
      for (const { values } of planned.filter((x) => x.holds).slice(0, 1)) {
        for (const p of stretch)
          planned.push({ values: { ...values, [p.name]: String(p.schema.maximum) }, holds: true });
      }
    }
    for (const { values, holds } of planned) {
      const repaired = repair(pl, rule, values);
      const c = buildCase(
        op,
        { values: repaired, credentials, label: `rule:${rule.id}${holds ? "" : "!"}` },
        account,
      );
      const key = JSON.stringify([c.pathname, c.query]);
      if (seen.has(key)) continue;
      seen.add(key);
      cases.push(c);
    }
  }
  return cases;
}
