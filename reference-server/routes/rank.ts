import { windowRange } from "../../src/rules/windows.ts";
import { alertRecord } from "../http/records.ts";
import type { Handler } from "./context.ts";
import { ruleQueryOperand } from "./spec-values.ts";

/** GET /api/v1/rank: one window (Asia/Shanghai) by comments then newest; content only above the threshold. */
export const getRank: Handler = (ctx, { operation, parsed }) => {
  const act = parsed.values.act as string;
  const limit = parsed.values.limit as number;
  const withContent = limit > ruleQueryOperand(operation, "rank-content-present", "limit", "gt");
  const { from, to } = windowRange(ctx.spec.rankWindows, act, ctx.nowSeconds());
  // The answer depends only on the window's bounds (seconds), the limit and the data: one
  // query and one serialization per key per second under load, not one per request.
  const body = ctx.store.memo(`rank\u0000${act}\u0000${limit}\u0000${from}\u0000${to}`, () => {
    const data = ctx.store.rank(from, to, limit).map((row) => alertRecord(row, withContent));
    const timezone = ctx.spec.rankWindows.timezone;
    return JSON.stringify({ data, meta: { act, limit, count: data.length, window: { from, to, timezone } } });
  });
  return { status: 200, body };
};
