import { activityRecord } from "../http/records.ts";
import type { Handler } from "./context.ts";
import { wordsOf } from "./spec-values.ts";

/** GET /api/v1/shenghuo: activities newest first, paged; `cates` only with with_cates=1. */
export const listActivities: Handler = (ctx, { operation, parsed }) => {
  const v = parsed.values;
  const cate = v.cate as string | undefined;
  const page = v.page as number;
  const pageSize = v.pageSize as number;
  const { rows, total } = ctx.store.activities(
    cate,
    wordsOf(operation, parsed, "q"),
    pageSize,
    (page - 1) * pageSize,
  );
  const body: Record<string, unknown> = {
    data: rows.map(activityRecord),
    meta: { cate: cate ?? null, q: parsed.raw.q ?? null, page, pageSize, count: rows.length, total },
  };
  if (v.with_cates === "1") body.cates = ctx.store.activityCategories();
  return { status: 200, body };
};
