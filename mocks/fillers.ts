import type { Spec } from "../src/spec/spec.ts";

/**
 * Values the rule layer can supply when a rule demands something an example lacks. Each is
 * derived from the spec (never re-typed), so a changed category list changes the mock too.
 */

/** meta.price_scope / data.price_filter: which categories and streams carry prices (x-categories). */
export function priceScope(spec: Spec): Record<string, unknown> {
  const schema = (spec.doc.components as { schemas: Record<string, { properties: Record<string, unknown> }> })
    .schemas.PriceScope;
  const unit = (schema?.properties.unit as { const?: string } | undefined)?.const ?? "CNY";
  const priced = spec.categories.items.filter((c) => c.priced);
  return {
    priced_categories: priced.map((c) => c.id),
    priced_streams: spec.categories.priced_streams,
    unit,
    note: `只有${priced.map((c) => c.name).join("、")}和 ${spec.categories.priced_streams.join("、")} 流带价格；其他分类按价格筛选结果为空。`,
  };
}

/** The shenghuo category list, counted from the records when the example has none. */
export function activityCategories(data: unknown): { id: string; name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const item of Array.isArray(data) ? data : []) {
    const cate = (item as { cate?: unknown })?.cate;
    if (typeof cate === "string") counts.set(cate, (counts.get(cate) ?? 0) + 1);
  }
  return [...counts].map(([id, count]) => ({ id, name: id, count }));
}

/**
 * `content` for rank entries asked with limit > 50: the same alert's body from another
 * example of the spec when one has it (the feed and personal examples do), else its title.
 */
export function contentFinder(spec: Spec): (record: Record<string, unknown>) => string | undefined {
  const byId = contentById(spec);
  return (record) => byId.get(record.id) ?? (typeof record.title === "string" ? record.title : undefined);
}

const contentIndex = new WeakMap<Spec, Map<unknown, string>>();

/** Every example record's `content` by its `id`, indexed once per spec (the layer asks per request). */
function contentById(spec: Spec): Map<unknown, string> {
  const cached = contentIndex.get(spec);
  if (cached) return cached;
  const byId = new Map<unknown, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === "object") {
      const rec = node as Record<string, unknown>;
      if (typeof rec.content === "string" && rec.id !== undefined) byId.set(rec.id, rec.content);
      Object.values(rec).forEach(visit);
    }
  };
  visit((spec.doc.components as Record<string, unknown>).examples);
  contentIndex.set(spec, byId);
  return byId;
}
