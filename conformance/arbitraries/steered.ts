/**
 * Requests steered by discovery toward answers that can show a violation of a rule: the values
 * the rule's `when` needs, then, for what its `then` judges, values the target's own data makes
 * informative: words that occur in its titles (two for an OR, the most widespread for a block
 * word), a price it carries as both bounds (inclusive), its busiest category, a limit at its
 * minimum where the rule caps the count by it, at its maximum where a fixed cap must be reached,
 * and the widest rank window.
 */
import { conditionHolds, refusingRules } from "../../src/rules/evaluate.ts";
import type { Rule } from "../../src/rules/types.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation, Parameter } from "../../src/spec/types.ts";
import type { Credentials, RequestCase } from "../types.ts";
import { baseValues } from "./boundaries.ts";
import { type Account, buildCase } from "./requests.ts";
import { holdingValues } from "./rule-cases.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** The rank window spanning the most time: it holds the most entries. */
function widestWindow(spec: Spec): string | undefined {
  const hours = (w: (typeof spec.rankWindows.windows)[string]) => (w.kind === "rolling" ? w.hours : 24);
  return Object.entries(spec.rankWindows.windows).sort(([, a], [, b]) => hours(b) - hours(a))[0]?.[0];
}

const isWindowEnum = (spec: Spec, p: Parameter) =>
  p.schema.enum?.every((v) => String(v) in spec.rankWindows.windows) === true;

function steer(spec: Spec, op: Operation, vocab: Vocabulary, rule: Rule, start: Record<string, string>) {
  const values = { ...start };
  const param = (name: string) => op.parameters.find((p) => p.name === name);
  const max = rule.then.count?.max;
  if (typeof max === "object") {
    const p = param(max.param);
    if (p?.schema.minimum !== undefined) values[p.name] = String(p.schema.minimum);
  } else if (typeof max === "number") {
    for (const p of op.parameters.filter((x) => x.schema.type === "integer" && (x.schema.maximum ?? 0) > max))
      values[p.name] = String(p.schema.maximum);
  }
  const each = rule.then.each;
  if (each?.matches) {
    const { param: name, mode, fields } = each.matches;
    const sep = param(name)?.words?.separators.find((s) => s.trim() !== "") ?? "|";
    const words = fields.includes("name") ? vocab.activityWords : vocab.words;
    values[name] = mode === "any" ? words.slice(0, 2).join(sep) : (words[0] ?? "");
  }
  for (const pred of Object.values(each?.fields ?? {})) {
    for (const bound of [pred.gte, pred.lte, pred.gt, pred.lt]) {
      if (typeof bound === "object" && vocab.prices[0] !== undefined)
        values[bound.param] = String(vocab.prices[0]);
    }
    const busiest = vocab.categories[0] && spec.category(vocab.categories[0]);
    if (pred.sameCategory && busiest) values[pred.sameCategory.param] = busiest.alias;
    if (typeof pred.eq === "object" && vocab.activityCates[0]) values[pred.eq.param] = vocab.activityCates[0];
  }
  return values;
}

/** One steered request per rule that judges served answers (refusing rules need no data). */
export function steeredCases(spec: Spec, op: Operation, vocab: Vocabulary, account?: Account): RequestCase[] {
  const credentials: Credentials | undefined = op.secured ? (account ? "valid" : "invalid") : undefined;
  const base = baseValues(op, vocab);
  const window = widestWindow(spec);
  for (const p of op.parameters) if (window && p.required && isWindowEnum(spec, p)) base[p.name] = window;
  const out: RequestCase[] = [];
  for (const rule of op.rules) {
    if (rule.then.status !== undefined && rule.then.status >= 400) continue;
    if (rule.when?.credentials === "invalid" || rule.then.ignores || rule.then.uniformBody) continue;
    for (const start of holdingValues(spec, op, vocab, rule, base)) {
      const values = steer(spec, op, vocab, rule, start);
      const parsed = parseRequest(spec, op, new URLSearchParams(Object.entries(values)), values);
      const holds = conditionHolds(spec, op, rule.when, parsed, credentials);
      if (!holds || parsed.errors.length > 0 || refusingRules(spec, op, parsed).length > 0) continue;
      out.push(buildCase(op, { values, credentials, label: `steered rule:${rule.id}` }, account));
    }
  }
  return out;
}
