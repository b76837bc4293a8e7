/**
 * Values that make requests meaningful on the target's data: words that occur in its titles (so
 * word searches find something to judge), prices it carries, its categories and activity
 * categories, most frequent first. Read once from the target's own answers (discovery); the
 * fallbacks keep generation working on an empty target.
 */
export interface Vocabulary {
  /** Words of alert titles, the most widespread first. */
  words: string[];
  /** Prices of searchable alerts (not zdm items). */
  prices: number[];
  /** Activity category ids, those with records first. */
  activityCates: string[];
  /** Words of activity names, the most widespread first. */
  activityWords: string[];
  tags: string[];
  /** Alert category ids seen in the data, the busiest first. */
  categories: string[];
  /**
   * Words of each text field of the records (alerts and activities), keyed by field name: those
   * that occur in that field and in no other field of the same record first. A word only the
   * description holds is what tells an implementation matching the name alone apart.
   */
  fieldWords: Record<string, string[]>;
  /**
   * For each field some alerts carry and others lack (price): the words of the titles of those
   * that carry it, the most widespread first. A relation whose second request takes that field
   * from the first answer's items searches one of these, so its first answer holds such items.
   */
  carrierWords: Record<string, string[]>;
  /**
   * The alerts seen (each once, by id) with what ranks them: a rank window's answer can be
   * foreseen from it, so that a comparison across windows is asked of a window whose rank differs
   * from its neighbours' (where it does not, an answer of the wrong window would pass unseen).
   */
  timeline: TimelineEntry[];
}

export interface TimelineEntry {
  id: unknown;
  comments: number;
  shijianchuo: number;
}

export const FALLBACK_VOCABULARY: Vocabulary = {
  words: ["京东", "红包", "立减金", "拼多多", "话费", "外卖", "PLUS"],
  prices: [0.01, 9.9, 99, 1799],
  activityCates: ["waimai", "chuxing"],
  activityWords: ["外卖", "红包"],
  tags: ["京东", "红包"],
  categories: [],
  fieldWords: {},
  carrierWords: {},
  timeline: [],
};

type Rec = Record<string, unknown>;

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** Candidate words of a title: its first CJK pair and its first Latin word. */
function wordsOf(title: string): string[] {
  return [/[\u4e00-\u9fff]{2}/.exec(title)?.[0], /[A-Za-z]{3,}/.exec(title)?.[0]].filter(
    (w): w is string => w !== undefined,
  );
}

/** Candidate words ranked by how many of the texts contain them (ties: first seen first). */
function rankedWords(titles: string[], max: number): string[] {
  const candidates = [...new Set(titles.flatMap(wordsOf))];
  const spread = new Map(candidates.map((w) => [w, titles.filter((t) => t.includes(w)).length]));
  return candidates.sort((a, b) => (spread.get(b) ?? 0) - (spread.get(a) ?? 0)).slice(0, max);
}

/** Values ranked by how often they occur. */
function byFrequency<T>(values: T[]): T[] {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.keys()].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
}

/** Per text field, its candidate words ranked by how many records hold them there and nowhere else. */
function wordsByField(records: Rec[], max: number): Record<string, string[]> {
  const spread = new Map<string, Map<string, number>>();
  for (const r of records) {
    const texts = Object.entries(r).filter((e): e is [string, string] => typeof e[1] === "string");
    for (const [field, value] of texts) {
      const counts = spread.get(field) ?? new Map<string, number>();
      spread.set(field, counts);
      for (const w of wordsOf(value)) {
        const elsewhere = texts.some(([f, v]) => f !== field && v.includes(w));
        counts.set(w, (counts.get(w) ?? 0) + (elsewhere ? 0 : 1));
      }
    }
  }
  return Object.fromEntries(
    [...spread].map(([field, counts]) => [
      field,
      [...counts.keys()].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0)).slice(0, max),
    ]),
  );
}

/** Per field that only some records carry, the ranked title words of those that carry it. */
function wordsByCarrier(records: Rec[], max: number): Record<string, string[]> {
  const fields = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const partial = fields.filter((f) => records.some((r) => r[f] === undefined || r[f] === null));
  return Object.fromEntries(
    partial.flatMap((f) => {
      const carriers = records.filter((r) => r[f] !== undefined && r[f] !== null);
      const words = rankedWords(
        carriers.map((r) => text(r.title)),
        max,
      );
      return words.length > 0 ? [[f, words]] : [];
    }),
  );
}

/** The alerts that carry numeric comments and shijianchuo, each id once. */
function timelineOf(records: Rec[]): TimelineEntry[] {
  const byId = new Map<string, TimelineEntry>();
  for (const { id, comments, shijianchuo } of records)
    if (typeof comments === "number" && typeof shijianchuo === "number")
      byId.set(JSON.stringify(id), { id, comments, shijianchuo });
  return [...byId.values()];
}

export function vocabularyFrom(alerts: unknown[], activities: unknown[], cates: unknown[]): Vocabulary {
  const records = (alerts as Rec[]).filter((a) => a !== null && typeof a === "object");
  const acts = (activities as Rec[]).filter((a) => a !== null && typeof a === "object");
  const words = rankedWords(
    records.map((a) => text(a.title)),
    16,
  );
  const prices = [
    ...new Set(records.map((a) => a.price).filter((p): p is number => typeof p === "number" && p >= 0)),
  ].slice(0, 8);
  const tags = byFrequency(
    records.flatMap((a) => (Array.isArray(a.tags) ? a.tags.filter((t) => typeof t === "string") : [])),
  ).slice(0, 6);
  const categories = byFrequency(
    records.map((a) => a.cateid).filter((c): c is string => typeof c === "string"),
  );
  const listed = (cates as Rec[]).map((c) => c?.id).filter((id): id is string => typeof id === "string");
  const withRecords = byFrequency(acts.map((a) => a.cate).filter((c): c is string => typeof c === "string"));
  const activityCates = [...new Set([...withRecords, ...listed])].slice(0, 8);
  const activityWords = rankedWords(
    acts.map((a) => text(a.name)),
    8,
  );
  return {
    words: words.length > 0 ? words : FALLBACK_VOCABULARY.words,
    prices: prices.length > 0 ? prices : FALLBACK_VOCABULARY.prices,
    activityCates: activityCates.length > 0 ? activityCates : FALLBACK_VOCABULARY.activityCates,
    activityWords: activityWords.length > 0 ? activityWords : FALLBACK_VOCABULARY.activityWords,
    tags: tags.length > 0 ? (tags as string[]) : FALLBACK_VOCABULARY.tags,
    categories,
    fieldWords: wordsByField([...records, ...acts], 8),
    carrierWords: wordsByCarrier(records, 4),
    timeline: timelineOf(records),
  };
}
