import { conditionHolds } from "../src/rules/evaluate.ts";
import { get } from "../src/rules/pointer.ts";
import { windowRange } from "../src/rules/windows.ts";
import type { JsonSchema } from "../src/spec/types.ts";
import { enforceRules, type ShapeContext } from "./enforce.ts";
import { priceScope } from "./fillers.ts";
import { buildManifest } from "./manifest.ts";
import { setAt } from "./pointer-edit.ts";

interface Page {
  count: number;
  total: number;
  /** The smallest literal cap among the count rules (a stream's retention), when there is one. */
  retention?: number;
}

/**
 * Turns the example (or dynamic body) Prism answered into what the API would answer to this
 * request: the rules enforced, the page cut by the count rules, and `meta` echoing the
 * effective request. The manifest is rebuilt from the spec.
 */
export function shapeAnswer(ctx: ShapeContext, body: unknown): unknown {
  if (ctx.operation.operationId === "getMeta" && isObject(body) && isObject(body.data)) {
    body = { ...body, data: buildManifest(ctx.spec, body.data) };
  }
  const shaped = enforceRules(ctx, body);
  const page = paginate(ctx, shaped);
  if (isObject(shaped) && isObject(shaped.meta)) echoMeta(ctx, shaped.meta, page);
  return shaped;
}

/**
 * Applies every count rule whose `when` holds. The page size is the parameter a count rule
 * names (limit, pageSize); `page` moves the window over the items, so page 2 of a two-item
 * example is empty, as the spec says a page past the end is.
 */
function paginate(ctx: ShapeContext, body: unknown): Page {
  const counts = ctx.operation.rules
    .map((r) => ({ rule: r, count: r.then.count }))
    .filter(({ rule, count }) => count && conditionHolds(ctx.spec, ctx.operation, rule.when, ctx.request));
  const at = counts[0]?.count?.at ?? "/data";
  const items = get(body, at);
  if (!Array.isArray(items)) return { count: 0, total: 0 };
  const caps = counts.map(({ count }) =>
    typeof count?.max === "number" ? count.max : Number(ctx.request.values[count?.max.param ?? ""]),
  );
  const literal = counts.flatMap(({ count }) => (typeof count?.max === "number" ? [count.max] : []));
  const cap = Math.min(...caps.filter((n) => Number.isFinite(n)), items.length);
  const sizeParam = counts.find(({ count }) => typeof count?.max === "object")?.count?.max;
  const pageNo = Number(ctx.request.values.page ?? 1);
  const size = typeof sizeParam === "object" ? Number(ctx.request.values[sizeParam.param]) : cap;
  const start = Number.isFinite(pageNo) && pageNo > 1 ? (pageNo - 1) * size : 0;
  const slice = items.slice(start, start + cap);
  setAt(body, at, slice);
  return {
    count: slice.length,
    total: items.length,
    retention: literal.length > 0 ? Math.min(...literal) : undefined,
  };
}

/** Writes the effective request (defaults applied; null for absent nullable ones) and the counts. */
function echoMeta(ctx: ShapeContext, meta: Record<string, unknown>, page: Page): void {
  const schema = ctx.spec.responseSchema(ctx.operation.operationId, 200, "application/json");
  const props = ((schema?.properties as Record<string, JsonSchema>)?.meta?.properties ?? {}) as Record<
    string,
    JsonSchema
  >;
  for (const [key, prop] of Object.entries(props)) {
    const param = ctx.operation.parameters.find((p) => p.name === key && p.in === "query");
    if (param) {
      const value = ctx.request.values[key];
      const nullable = Array.isArray(prop.type) && prop.type.includes("null");
      if (value !== undefined) meta[key] = value;
      else if (nullable) meta[key] = null;
      continue;
    }
    if (key === "count") meta.count = page.count;
    else if (key === "total") meta.total = page.total;
    else if (key === "retention" && page.retention !== undefined) meta.retention = page.retention;
    else if (key === "price_scope") meta.price_scope = priceScope(ctx.spec);
    else if (key === "generated_at") meta.generated_at = ctx.now;
    else if (key === "window" && typeof ctx.request.values.act === "string") {
      const range = windowRange(ctx.spec.rankWindows, ctx.request.values.act, ctx.now);
      meta.window = { ...range, timezone: ctx.spec.rankWindows.timezone };
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
