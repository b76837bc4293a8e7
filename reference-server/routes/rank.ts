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
  const data = ctx.store.rank(from, to, limit).map((row) => alertRecord(row, withContent));
  return {
    status: 200,
    body: {
      data,
      meta: { act, limit, count: data.length, window: { from, to, timezone: ctx.spec.rankWindows.timezone } },
    },
  };
};
