import { splitWords } from "../../src/rules/words.ts";
import type { ParsedRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";

/**
 * Numbers the server obeys that the spec states as rules, read from the rules themselves (by
 * their stable ids) so that a rule changed in the spec changes the server.
 */
export function ruleCountMax(operation: Operation, ruleId: string): number {
  const max = operation.rules.find((r) => r.id === ruleId)?.then.count?.max;
  if (typeof max !== "number")
    throw new Error(`rule ${ruleId} of ${operation.operationId} has no numeric count.max`);
  return max;
}

/** The literal operand of a query predicate of a rule's `when`, e.g. `limit: { gt: 50 }` → 50. */
export function ruleQueryOperand(
  operation: Operation,
  ruleId: string,
  param: string,
  key: "gt" | "lte",
): number {
  const value = operation.rules.find((r) => r.id === ruleId)?.when?.query?.[param]?.[key];
  if (typeof value !== "number")
    throw new Error(`rule ${ruleId} of ${operation.operationId} has no ${param}.${key}`);
  return value;
}

/** The words of a word-list parameter (x-words), or undefined when absent or blank. */
export function wordsOf(operation: Operation, parsed: ParsedRequest, name: string): string[] | undefined {
  const raw = parsed.raw[name];
  const syntax = operation.parameters.find((p) => p.name === name)?.words;
  if (raw === undefined || !syntax) return undefined;
  const words = splitWords(raw, syntax);
  return words.length ? words : undefined;
}

/** The category ID a `cate` value names, or undefined for the whole site. */
export function categoryId(spec: Spec, cate: unknown): string | undefined {
  if (typeof cate !== "string" || cate === spec.categories.all_alias) return undefined;
  const category = spec.category(cate);
  if (!category) throw new Error(`cate ${cate} passed validation but is not in x-categories`);
  return category.id;
}

/** meta.price_scope / meta price_filter: which categories and streams carry prices. */
export function priceScope(spec: Spec) {
  const priced = spec.categories.items.filter((c) => c.priced);
  const names = [...priced.map((c) => c.name), ...spec.categories.priced_streams.map(streamName)];
  return {
    priced_categories: priced.map((c) => c.id),
    priced_streams: spec.categories.priced_streams,
    unit: "CNY",
    note: `只有${names.join("、")}带价格；其他分类按价格筛选结果为空。`,
  };
}

/** Display names of the independent streams (the spec names them only by type). */
export function streamName(type: string): string {
  return type === "zdm" ? "值得买" : type;
}
