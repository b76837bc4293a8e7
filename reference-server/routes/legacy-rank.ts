import { windowRange } from "../../src/rules/windows.ts";
import { alertRecord } from "../http/records.ts";
import type { Handler } from "./context.ts";
import { ruleCountMax } from "./spec-values.ts";

/** GET /plus/json/rank/{act}.json: the real site's file, a bare array of the top entries without content. */
export const getLegacyRankFile: Handler = (ctx, { operation, parsed }) => {
  const act = parsed.values.act as string;
  const { from, to } = windowRange(ctx.spec.rankWindows, act, ctx.nowSeconds());
  const top = ruleCountMax(operation, "legacy-rank-count");
  return { status: 200, body: ctx.store.rank(from, to, top).map((row) => alertRecord(row, false)) };
};
