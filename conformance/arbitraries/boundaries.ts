/**
 * The boundary cases of an operation, each tied to the goal it serves: every numeric parameter at
 * its minimum and maximum and every rank window (valid: must be served), each parameter just
 * outside its range or enum, a non-number, a missing required parameter and a parameter given
 * twice (invalid: must be a 400 naming it).
 */
import { refusingRules } from "../../src/rules/evaluate.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation, Parameter } from "../../src/spec/types.ts";
import type { Credentials, RequestCase } from "../types.ts";
import { exampleValue } from "./params.ts";
import { type Account, buildCase } from "./requests.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** Required parameters at their example value: the smallest valid request. */
export function baseValues(op: Operation, vocab: Vocabulary): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of op.parameters) if (p.required && p.in !== "header") values[p.name] = exampleValue(p, vocab);
  return values;
}

/**
 * The base values with what a refusing rule needs besides (a search needs a criterion): each
 * boundary case then breaks one thing only, and the 400 it earns can name only that.
 */
export function servedBase(spec: Spec, op: Operation, vocab: Vocabulary): Record<string, string> {
  const values = baseValues(op, vocab);
  for (let i = 0; i < 3; i++) {
    const parsed = parseRequest(spec, op, new URLSearchParams(Object.entries(values)), values);
    const rule = refusingRules(spec, op, parsed)[0];
    const blank = Object.entries(rule?.when?.query ?? {}).find(([, p]) => p.blank === true);
    const param = blank && op.parameters.find((p) => p.name === blank[0]);
    if (!param) break;
    values[param.name] = exampleValue(param, vocab);
  }
  return values;
}

const numeric = (p: Parameter) => p.schema.type === "integer" || p.schema.type === "number";

/**
 * A character outside the Basic Multilingual Plane (𠀀, U+20000): one code point, two UTF-16 units.
 * Lengths count code points (info.description "Query values"), so a word of max_word_length of
 * them must be served, and one more refused.
 */
const ASTRAL = "\u{20000}";

/**
 * Valid values that must be served: numeric min and max; every value of the rank window enum;
 * for word lists, max_words words, and one word of max_word_length astral characters.
 */
export function validValues(p: Parameter): string[] {
  const s = p.schema;
  if (numeric(p)) return [s.minimum, s.maximum].filter((v) => v !== undefined).map(String);
  if (p.words) {
    const { max_words, max_word_length, separators } = p.words;
    const words = Array.from({ length: max_words }, (_, i) => `w${i}`).join(separators[1] ?? "|");
    return [words, ASTRAL.repeat(max_word_length)];
  }
  // Windows differ in kind (rolling, calendar day): each is its own computation to get right.
  if (s.enum && p.name === "act" && p.in === "query") return s.enum.map(String);
  return [];
}

/** Values that must be refused: just outside each bound, an unknown enum value, an over-long word. */
function invalidValues(p: Parameter): string[] {
  const s = p.schema;
  if (s.enum) return ["nope"];
  if (numeric(p)) {
    const out: string[] = [];
    if (s.minimum !== undefined) out.push(String(s.minimum - 1));
    if (s.maximum !== undefined) out.push(String(s.maximum + 1));
    return out;
  }
  // One too many counts the same in code points and in UTF-16 units: only the valid astral word
  // above tells them apart.
  if (p.words) return ["x".repeat(p.words.max_word_length + 1)];
  if (s.pattern) return ["Bad Cate"];
  if (s.maxLength !== undefined) return ["z".repeat(s.maxLength + 1)];
  return [];
}

/** 券, nine characters once percent-encoded as a browser sends it (%E5%88%B8). */
const WIDE = "券";

/**
 * A query of exactly `length` characters as sent (x-query-string counts it so): one unknown
 * parameter (ignored by the contract) of 券 and ASCII filler, percent-encoded as a browser does.
 */
export function paddedQuery(length: number): [string, string][] {
  const name = "padding";
  const room = length - name.length - 1;
  const wide = Math.max(0, Math.floor(room / encodeURIComponent(WIDE).length));
  return [[name, WIDE.repeat(wide) + "x".repeat(Math.max(0, room - wide * encodeURIComponent(WIDE).length))]];
}

/**
 * The query-string cap from both sides: at the cap (served) and one over it (a 400 naming
 * `query`, never a proxy's 414). Tried on an operation without parameters, where the padding is
 * all the query holds, so the answer can be about its length only.
 */
function queryCapCases(spec: Spec, op: Operation): RequestCase[] {
  if (op.parameters.length > 0) return [];
  const max = spec.queryString.max_length;
  return [
    [`valid:${op.operationId}:query of ${max} characters as sent`, max],
    [`invalid:${op.operationId}:query of ${max + 1} characters as sent`, max + 1],
  ].map(([label, length]) =>
    buildCase(op, { values: {}, extra: paddedQuery(Number(length)), label: String(label) }),
  );
}

/** Decimals past what a double holds: a bound this far from a price must still exclude it. */
const PAST_DOUBLE = "000000000000000001";

/**
 * A price bound just past a known one in the decimals a double cannot hold (`9.9000000000000000001`):
 * compared exactly, as written (info.description "Query values"), it is greater; a server
 * comparing doubles finds them equal.
 */
export function pastDoubleValue(price: string): string {
  return price.includes(".") ? `${price}${PAST_DOUBLE}` : `${price}.${PAST_DOUBLE}`;
}

/** Whether a value is such a bound (the goal a boundary case of it serves). */
export const isPastDouble = (raw: string) => raw.endsWith(PAST_DOUBLE);

/**
 * A rule comparing two price parameters (`mip` greater than `mxp` is a 400) tried where only exact
 * decimals see the difference: `mip=9.9000000000000000001&mxp=9.9` is an empty range, refused; a
 * server comparing doubles sees 9.9 twice and serves it. Labelled `rule:<id> <param>=<value>`.
 */
function exactBoundCases(op: Operation, vocab: Vocabulary, base: Record<string, string>): RequestCase[] {
  for (const rule of op.rules) {
    for (const [name, pred] of Object.entries(rule.when?.query ?? {})) {
      const other = pred.gt;
      const param = op.parameters.find((p) => p.name === name && p.schema.type === "number");
      if (!param || typeof other !== "object" || other === null || !("param" in other)) continue;
      const at = exampleValue(param, vocab);
      const values = { ...base, [name]: pastDoubleValue(at), [other.param]: at };
      return [buildCase(op, { values, label: `rule:${rule.id} ${name}=${values[name]}` })];
    }
  }
  return [];
}

/**
 * A request a refusing rule refuses for what is absent (a search without criterion) that also
 * breaks a parameter (`limit=0`): one 400 must carry the rule's type and name both (info.description
 * "Order of checks"). Labelled `invalid:<op>:<param>=<value> and <rule id>`, as readCandidate reads it.
 */
function precedenceCases(spec: Spec, op: Operation, vocab: Vocabulary): RequestCase[] {
  const rule = op.rules.find(
    (r) =>
      (r.then.status ?? 0) >= 400 &&
      r.when?.query !== undefined &&
      Object.values(r.when.query).every((c) => c.blank === true),
  );
  const param = op.parameters.find(
    (p) =>
      p.in === "query" &&
      numeric(p) &&
      p.schema.minimum !== undefined &&
      rule?.when?.query?.[p.name] === undefined,
  );
  if (!rule || !param) return [];
  const values = { ...baseValues(op, vocab), [param.name]: String((param.schema.minimum ?? 0) - 1) };
  const parsed = parseRequest(spec, op, new URLSearchParams(Object.entries(values)), values);
  if (!refusingRules(spec, op, parsed).includes(rule)) return [];
  return [
    buildCase(op, {
      values,
      label: `invalid:${op.operationId}:${param.name}=${values[param.name]} and ${rule.id}`,
    }),
  ];
}

/**
 * The boundary cases of an operation, each labelled with the goal it serves:
 * `valid:<op>:<param>=<value>`, `invalid:<op>:<param>=<value>`, `… missing`, `… twice`.
 */
export function boundaryCases(
  spec: Spec,
  op: Operation,
  vocab: Vocabulary,
  account?: Account,
): RequestCase[] {
  const credentials: Credentials | undefined = op.secured ? (account ? "valid" : "invalid") : undefined;
  const base = servedBase(spec, op, vocab);
  const id = op.operationId;
  const out: RequestCase[] = [];
  const add = (goal: string, values: Record<string, string>, extra?: [string, string][]) =>
    out.push(buildCase(op, { values, credentials, ...(extra ? { extra } : {}), label: goal }, account));
  // The uid is half of the credentials when an account is known: it stays as the account's.
  const params = op.parameters.filter((p) => p.in !== "header" && !(op.secured && p.name === "uid"));
  for (const p of params)
    for (const v of validValues(p)) add(`valid:${id}:${p.name}=${v}`, { ...base, [p.name]: v });
  for (const p of params)
    for (const v of invalidValues(p)) add(`invalid:${id}:${p.name}=${v}`, { ...base, [p.name]: v });
  out.push(...exactBoundCases(op, vocab, base));
  const junk = params.find(numeric);
  if (junk)
    add(`invalid:${id}:${junk.name}=${junk.schema.type === "integer" ? "1.5" : "abc"}`, {
      ...base,
      [junk.name]: junk.schema.type === "integer" ? "1.5" : "abc",
    });
  for (const p of params.filter((x) => x.required && x.in === "query")) {
    const { [p.name]: _, ...rest } = base;
    add(`invalid:${id}:${p.name} missing`, rest);
  }
  const twice = params.find((p) => p.in === "query");
  if (twice) {
    const v = exampleValue(twice, vocab);
    add(`invalid:${id}:${twice.name} twice`, { ...base, [twice.name]: v }, [[twice.name, v]]);
  }
  out.push(...queryCapCases(spec, op));
  if (!op.secured) out.push(...precedenceCases(spec, op, vocab));
  return out;
}
