/**
 * Values that make requests meaningful on the target's data: words that occur in its titles (so
 * word searches find something to judge), prices it carries, its activity categories. Read
 * once from the target's own answers; the fallbacks keep generation working on an empty target.
 */
export interface Vocabulary {
  words: string[];
  prices: number[];
  activityCates: string[];
  tags: string[];
}

export const FALLBACK_VOCABULARY: Vocabulary = {
  words: ["京东", "红包", "立减金", "拼多多", "话费", "外卖", "PLUS"],
  prices: [0.01, 9.9, 99, 1799],
  activityCates: ["waimai", "chuxing"],
  tags: ["京东", "红包"],
};

type Rec = Record<string, unknown>;

/** Picks distinct short words from titles: the first CJK pair and the first Latin word of each. */
export function vocabularyFrom(alerts: unknown[], activities: unknown[], cates: unknown[]): Vocabulary {
  const words = new Set<string>();
  const prices = new Set<number>();
  const tags = new Set<string>();
  for (const a of alerts as Rec[]) {
    const title = typeof a?.title === "string" ? a.title : "";
    const cjk = /[\u4e00-\u9fff]{2}/.exec(title)?.[0];
    const latin = /[A-Za-z]{3,}/.exec(title)?.[0];
    if (cjk && words.size < 12) words.add(cjk);
    if (latin && words.size < 12) words.add(latin);
    if (typeof a?.price === "number" && prices.size < 8) prices.add(a.price);
    if (Array.isArray(a?.tags))
      for (const t of a.tags) if (typeof t === "string" && tags.size < 6) tags.add(t);
  }
  for (const act of activities as Rec[]) {
    const cjk = typeof act?.name === "string" ? /[\u4e00-\u9fff]{2}/.exec(act.name)?.[0] : undefined;
    if (cjk && words.size < 16) words.add(cjk);
  }
  const activityCates = (cates as Rec[])
    .map((c) => c?.id)
    .filter((id): id is string => typeof id === "string");
  return {
    words: words.size > 0 ? [...words] : FALLBACK_VOCABULARY.words,
    prices: prices.size > 0 ? [...prices] : FALLBACK_VOCABULARY.prices,
    activityCates: activityCates.length > 0 ? activityCates.slice(0, 8) : FALLBACK_VOCABULARY.activityCates,
    tags: tags.size > 0 ? [...tags] : FALLBACK_VOCABULARY.tags,
  };
}
