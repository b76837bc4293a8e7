import { alertRecord, zdmRecord } from "../http/records.ts";
import type { Handler } from "./context.ts";
import { categoryId, ruleCountMax } from "./spec-values.ts";

/**
 * GET /api/v1/feed: the latest snapshot of a channel, newest first. A stream only keeps its
 * retention (20 per category and for the whole site, 30 for zdm), whatever the limit.
 */
export const getFeed: Handler = (ctx, { operation, parsed }) => {
  const cate = parsed.values.cate as string;
  const type = parsed.values.type as string | undefined;
  const limit = parsed.values.limit as number;
  const zdm = type === "zdm";
  const retention = ruleCountMax(operation, zdm ? "feed-zdm-retention" : "feed-category-retention");
  const take = Math.min(limit, retention);
  // The snapshot changes only with the data: serialized once per (cate, type, limit) and data state.
  const body = ctx.store.memo(`feed ${JSON.stringify([cate, type ?? null, limit])}`, () => {
    const data = zdm
      ? ctx.store.latestZdm(take).map(zdmRecord)
      : ctx.store.latest(categoryId(ctx.spec, cate), take).map((row) => alertRecord(row, true));
    return JSON.stringify({ data, meta: { cate, type: type ?? null, limit, count: data.length, retention } });
  });
  return { status: 200, body };
};
