import { renderRss } from "../http/rss.ts";
import type { Handler } from "./context.ts";
import { categoryId, wordsOf } from "./spec-values.ts";

/** The spec's description of /rss.php: "Items are the latest 20 alerts that match". */
const RSS_ITEMS = 20;

/** GET /rss.php: RSS 2.0 for the whole site, a category, a tag or keywords (filters combine with AND). */
export const getRss: Handler = (ctx, { operation, parsed, baseUrl }) => {
  const cateid = categoryId(ctx.spec, parsed.values.cate);
  const tag = parsed.values.tag as string | undefined;
  const words = wordsOf(operation, parsed, "q");
  const rows = ctx.store.alerts({ cateid, tag, anyWords: words }, RSS_ITEMS);
  const scope = [
    cateid === undefined ? "全站" : (ctx.spec.category(cateid)?.name ?? cateid),
    tag === undefined ? undefined : `标签 ${tag}`,
    words === undefined ? undefined : `关键词 ${words.join("|")}`,
  ].filter(Boolean);
  const body = renderRss(
    { title: `线报 - ${scope.join(" · ")}`, link: `${baseUrl}/`, description: "最新线报" },
    rows,
  );
  return { status: 200, body, type: "application/rss+xml; charset=utf-8" };
};
