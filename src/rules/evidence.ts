/**
 * Evidence: whether an answer could have shown a violation of a rule. A rule judged only on
 * answers that give it nothing to judge (no entry to carry `content`, no result to contain a q
 * word, fewer items than the cap) passes vacuously; a conformance run must not count that as a pass.
 */
import type { Spec } from "../spec/spec.ts";
import { conditionHolds, countCap, judgedItems, type RuleExchange, refusingRules } from "./evaluate.ts";
import { get } from "./pointer.ts";
import type { Rule } from "./types.ts";
import { splitWords } from "./words.ts";

/**
 * True when the rule applied to this exchange and had something to judge:
 * - a refusing rule (a 4xx demanded), pointers that must be present or absent, an array that
 *   must be empty, mirrors: the answer itself is the evidence;
 * - `each`: at least one item was judged (and `matches` had words to look for);
 * - `count`: the answer reached the cap (a server that ignored it could have shown more);
 * - `order`: at least two items.
 */
export function ruleInformative(spec: Spec, rule: Rule, exchange: RuleExchange): boolean {
  const { operation, request, status } = exchange;
  if (!conditionHolds(spec, operation, rule.when, request, exchange.credentials)) return false;
  const then = rule.then;
  if (then.status !== undefined && then.status >= 400) return true;
  if (refusingRules(spec, operation, request).length > 0) return false;
  if (then.status !== undefined ? status !== then.status : status < 200 || status > 299) return false;
  if (then.present?.length || then.absent?.length || then.empty !== undefined || then.mirrors?.length)
    return true;
  if (then.each) {
    const { matches } = then.each;
    const syntax = matches && operation.parameters.find((p) => p.name === matches.param)?.words;
    const words = matches && syntax ? splitWords(request.raw[matches.param] ?? "", syntax) : undefined;
    if ((!matches || (words?.length ?? 0) > 0) && judgedItems(spec, then.each, exchange).length > 0)
      return true;
  }
  if (then.count) {
    const cap = countCap(spec, then, exchange);
    const items = get(exchange.body, then.count.at);
    if (cap !== undefined && Array.isArray(items) && items.length >= cap) return true;
  }
  if (then.order) {
    const items = get(exchange.body, then.order.at);
    if (Array.isArray(items) && items.length >= 2) return true;
  }
  return false;
}
