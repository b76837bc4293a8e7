import type { Category } from "../../src/spec/types.ts";
import { Prng } from "./prng.ts";
import type { ActivityRow, AlertRow, Dataset, ZdmRow } from "./records.ts";
import { localDate, localStamp } from "./time.ts";
import * as V from "./vocab.ts";

export interface GenerateOptions {
  /** Alerts to generate. */
  size: number;
  seed: number;
  /** The reference instant (Unix seconds): every timestamp lies in the 20 days before it. */
  nowSeconds: number;
  /** The spec's categories (x-categories): ids, aliases, names and which carry prices. */
  categories: Category[];
  /** Seconds east of UTC of the spec's time zone, for datetime/shorttime. */
  zoneOffset: number;
}

/** Generated data spans this long before its reference time; live data keeps this retention. */
export const SPAN_SECONDS = 20 * 86_400;
const FIRST_ALERT_ID = 4_100_000;
const FIRST_ZDM_ID = 129_900_000;
const FIRST_ACTIVITY_ID = 5_000;

/** How busy each kind of channel is, relative to a forum (the big forums carry most alerts). */
const KIND_WEIGHT: Record<string, number> = {
  forum: 1,
  microblog: 2,
  "good-order": 1.5,
  "discussion-group": 1,
  "bounty-forum": 0.5,
};
const BUSY_ALIASES = new Set(["zuankeba", "xinzuanba", "weibo"]);

/**
 * Deterministic, realistic data: the same options give the same rows on every machine.
 * Timestamps lean towards `nowSeconds` (density ∝ age^-1/3), so even the one-hour window and a
 * few minutes after local midnight (`jintian`) have entries at modest sizes.
 */
export function generate(options: GenerateOptions): Dataset {
  const { alerts, rest } = generateStream(options);
  return { alerts: [...alerts], ...rest() };
}

/**
 * The same data as `generate`, its alerts made one at a time as they are read, so that a bulk
 * write of a million never holds them all (a heap of a million alerts costs the write more in
 * garbage collection than it costs to make them). `rest` must be called after the alerts are read.
 */
export function generateStream(options: GenerateOptions): {
  alerts: Iterable<AlertRow>;
  rest: () => Omit<Dataset, "alerts">;
} {
  const rng = new Prng(options.seed);
  let done = false;
  const alerts = function* () {
    yield* generateAlerts(rng, options);
    done = true;
  };
  return {
    alerts: alerts(),
    rest: () => {
      if (!done) throw new Error("generateStream: read the alerts before the rest");
      return {
        zdm: generateZdm(rng, options, Math.max(60, Math.ceil(options.size / 100))),
        ...generateActivities(rng, options, Math.max(40, Math.min(400, Math.ceil(options.size / 50)))),
      };
    },
  };
}

function ageSeconds(rng: Prng): number {
  return Math.floor(SPAN_SECONDS * rng.next() ** 1.5);
}

/** One draw per template: {n} and {m} share the amount (m is a multiple of n). */
interface Draw {
  rng: Prng;
  n?: number;
}

function amount(d: Draw): number {
  d.n ??= d.rng.pick([1, 2, 3, 5, 6, 8, 10, 12, 15, 18, 20, 25, 30, 50]);
  return d.n;
}

// Module-level (not per call): closures created in the hot loop cost more than the work itself.
const PICKERS: Record<string, (d: Draw) => string> = {
  mall: (d) => d.rng.pick(V.MALLS),
  bank: (d) => d.rng.pick(V.BANKS),
  channel: (d) => d.rng.pick(V.BANK_CHANNELS),
  carrier: (d) => d.rng.pick(V.CARRIERS),
  perk: (d) => d.rng.pick(V.PERKS),
  action: (d) => d.rng.pick(V.ACTIONS),
  suffix: (d) => d.rng.pick(V.SUFFIXES),
  weekday: (d) => d.rng.pick(V.WEEKDAYS),
  n: (d) => String(amount(d)),
  m: (d) => String(amount(d) * d.rng.pick([2, 3, 5, 10])),
  d: (d) => String(d.rng.int(5, 9)),
  product: (d) => d.rng.pick(V.PRODUCTS)[1],
};

/** Fills a template's {placeholders}; only the placeholders present draw random numbers. */
function fill(template: string, rng: Prng, extra: Record<string, string> = {}): string {
  const draw: Draw = { rng };
  let out = "";
  let last = 0;
  for (let open = template.indexOf("{"); open !== -1; open = template.indexOf("{", last)) {
    const close = template.indexOf("}", open);
    const key = template.slice(open + 1, close);
    out += template.slice(last, open) + (extra[key] ?? PICKERS[key]?.(draw) ?? "");
    last = close + 1;
  }
  return (out + template.slice(last)).replace(/\s+/g, " ").trim();
}

function priceOf(rng: Prng): number {
  const band = rng.weighted([
    [0, 2],
    [1, 3],
    [2, 3],
    [3, 2],
  ] as const);
  const raw =
    [rng.next() * 1, 1 + rng.next() * 49, 50 + rng.next() * 450, 500 + rng.next() * 4500][band] ?? 1;
  return Math.max(0.01, Math.round(raw * 100) / 100);
}

/** How likely each category is to get the next alert (the big forums and weibo carry most). */
export function categoryWeights(categories: Category[]): (readonly [Category, number])[] {
  return categories.map(
    (c) => [c, (KIND_WEIGHT[c.kind] ?? 1) * (BUSY_ALIASES.has(c.alias) ? 4 : 1)] as const,
  );
}

function* generateAlerts(rng: Prng, o: GenerateOptions): Generator<AlertRow> {
  const weights = categoryWeights(o.categories);
  const times = Array.from({ length: o.size }, () => o.nowSeconds - ageSeconds(rng)).sort((a, b) => a - b);
  for (const [i, shijianchuo] of times.entries())
    yield makeAlert(rng, o, rng.weighted(weights), FIRST_ALERT_ID + i, shijianchuo);
}

/** One alert of a category, published at `shijianchuo` (as seen `o.nowSeconds`). */
export function makeAlert(
  rng: Prng,
  o: Pick<GenerateOptions, "nowSeconds" | "zoneOffset">,
  cate: Category,
  id: number,
  shijianchuo: number,
): AlertRow {
  const [brand, product] = rng.pick(V.PRODUCTS);
  const template = cate.priced ? rng.pick(V.PRICED_TOPICS) : rng.pick(V.FORUM_TOPICS);
  // A bank 立减金 costs a token payment; goods cost what goods cost.
  const price = !cate.priced
    ? null
    : template.includes("{bank}")
      ? rng.pick([0.01, 0.1, 1, 5, 9.9])
      : priceOf(rng);
  const priceText = price === null ? "" : String(price);
  const title = fill(template, rng, { brand, product, price: priceText });
  const mall = V.MALLS.find((m) => title.includes(m)) ?? V.BANKS.find((b) => title.includes(b));
  const content = [fill(rng.pick(V.CONTENT_LINES), rng), fill(rng.pick(V.CONTENT_LINES), rng)].join("");
  const age = o.nowSeconds - shijianchuo;
  const regDay = rng.chance(0.7) ? localDate(shijianchuo - rng.int(200, 3000) * 86_400, o.zoneOffset) : null;
  const tags: string[] = mall === undefined ? [rng.pick(V.PERKS)] : [mall, rng.pick(V.PERKS)];
  return {
    id,
    title,
    content,
    ...localStamp(shijianchuo, o.zoneOffset),
    shijianchuo,
    cateid: cate.id,
    catename: cate.name,
    // Older alerts have had time to collect comments.
    comments: Math.floor(rng.next() ** 2 * Math.min(300, 5 + age / 1200)),
    louzhu: rng.pick(V.NICKNAMES),
    louzhuregtime: regDay,
    url: `https://new.xianbao.fun/${cate.alias}/${id}.html`,
    yuanurl: sourceUrl(rng, cate.alias),
    price,
    tags: JSON.stringify([...new Set(tags)]),
  };
}

function sourceUrl(rng: Prng, alias: string): string | null {
  const n = rng.int(8_000_000, 9_999_999);
  switch (alias) {
    case "zuankeba":
      return `http://www.zuanke8.com/thread-${n}-1-1.html`;
    case "xinzuanba":
      return `https://www.xinzuan8.com/thread-${n}.html`;
    case "douban":
      return `https://www.douban.com/group/topic/${n}/`;
    case "kuan":
      return `https://www.coolapk.com/feed/${n}`;
    default:
      return rng.chance(0.3) ? `https://weibo.com/${n}` : null;
  }
}

function generateZdm(rng: Prng, o: GenerateOptions, count: number): ZdmRow[] {
  const times = Array.from({ length: count }, () => o.nowSeconds - ageSeconds(rng)).sort((a, b) => a - b);
  return times.map((posttime, i) => makeZdm(rng, FIRST_ZDM_ID + i, posttime));
}

/** One item of the worth-buying (值得买) stream. */
export function makeZdm(rng: Prng, id: number, posttime: number): ZdmRow {
  const [brand, product, category] = rng.pick(V.PRODUCTS);
  const mall = rng.pick(["京东", "天猫", "拼多多", "苏宁易购", "唯品会"]);
  const price = priceOf(rng);
  const coupon = rng.pick([5, 10, 20, 30, 50]);
  return {
    id,
    title: `${brand} ${product}`,
    price,
    mall_name: mall,
    brand: rng.chance(0.9) ? brand : null,
    category_name: category,
    pic: `https://img.xianbao.example/zdm/${id}.jpg`,
    posttime,
    url: `https://new.xianbao.fun/zdm/${id}.html`,
    content: `${mall}${rng.chance(0.5) ? "自营" : "旗舰店"}，领${coupon}元券后${price}元${rng.chance(0.4) ? "，历史低价" : ""}。`,
  };
}

function generateActivities(
  rng: Prng,
  o: GenerateOptions,
  count: number,
): Pick<Dataset, "activities" | "activityCategories"> {
  const activities: ActivityRow[] = [];
  for (let i = 0; i < count; i++) {
    const [cate] = rng.pick(V.ACTIVITY_CATES);
    const template = V.ACTIVITY_TEMPLATES[cate];
    if (!template) continue;
    const id = FIRST_ACTIVITY_ID + i;
    const start = o.nowSeconds - rng.int(0, 30) * 86_400;
    const host = rng.pick(template.hosts);
    const token = Array.from({ length: 8 }, () =>
      rng.pick([..."abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"]),
    ).join("");
    activities.push({
      id,
      name: fill(rng.pick(template.names), rng),
      desc: rng.pick(V.ACTIVITY_DESCS),
      cate,
      h5: `https://${host}/p/${token}`,
      pic: `https://img.xianbao.example/shenghuo/${id}.png`,
      start_time: localDate(start, o.zoneOffset),
      end_time: rng.chance(0.7) ? localDate(start + rng.int(7, 60) * 86_400, o.zoneOffset) : null,
    });
  }
  // Newest first by id is the listing order; ids grow with start so the newest are on page 1.
  activities.sort((a, b) => a.start_time.localeCompare(b.start_time) || a.id - b.id);
  activities.forEach((a, i) => {
    a.id = FIRST_ACTIVITY_ID + i;
    a.pic = `https://img.xianbao.example/shenghuo/${a.id}.png`;
  });
  return {
    activities,
    activityCategories: V.ACTIVITY_CATES.map(([id, name]) => ({ id, name })),
  };
}
