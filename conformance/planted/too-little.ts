/**
 * Planted bugs that return too little where only a second answer shows it (x-relations added
 * for issue 21): a last page one result short, short rank windows empty or stale while the feed
 * shows alerts inside them, the legacy rank file serving another window, and an activity keyword
 * matched in the name only. Each answer is valid alone; each bug fails exactly its relation.
 */
import { localMidnight } from "../../src/rules/windows.ts";
import { containsWord } from "../../src/rules/words.ts";
import type { Mutation, ProxiedRequest, ProxiedResponse } from "./proxy.ts";
import type { PlantedBug } from "./variants.ts";

type Rec = Record<string, unknown>;
type Body = { data?: Rec[]; meta?: Rec; cates?: unknown };

const parse = (res: ProxiedResponse) => JSON.parse(res.body) as unknown;
const withBody = (res: ProxiedResponse, body: unknown): ProxiedResponse => ({
  ...res,
  body: JSON.stringify(body),
});

/** A valid positive integer parameter, or its default when absent (invalid: undefined). */
function intParam(req: ProxiedRequest, name: string, fallback: number, max: number): number | undefined {
  const given = req.query.getAll(name).filter((v) => v !== "");
  if (given.length === 0) return fallback;
  const n = Number(given[0]);
  return given.length === 1 && /^[0-9]+$/.test(given[0] ?? "") && n >= 1 && n <= max ? n : undefined;
}

/**
 * A page after the first that is not full but holds something loses its last item: the count
 * says so (meta.count), meta.total does not (page 1 stays whole, so only the page arithmetic of
 * the last page shows it).
 */
function lastPageShort(path: string, sizeParam: string, maxSize: number): Mutation {
  return {
    response(req, res) {
      if (req.pathname !== path || res.status !== 200) return res;
      const page = intParam(req, "page", 1, 1000);
      const size = intParam(req, sizeParam, 20, maxSize);
      const body = parse(res) as Body;
      const list = body.data ?? [];
      if (!page || page < 2 || !size || list.length === 0 || list.length >= size) return res;
      list.pop();
      if (body.meta) body.meta.count = list.length;
      return withBody(res, body);
    },
  };
}

/**
 * The windows spanning at most 3 hours now: the rolling 1 and 3 hours, and today while it is
 * younger than that (x-rank-windows; Asia/Shanghai).
 */
function shortWindow(act: string, now: number): boolean {
  if (act === "yixiaoshi" || act === "sanxiaoshi") return true;
  return act === "jintian" && now - localMidnight(now, "Asia/Shanghai", 0) <= 3 * 3600;
}

const LEGACY = /^\/plus\/json\/rank\/([a-z]+)\.json$/;

/** The act of a rank answer (API or legacy file) and its entries, to edit alike in both. */
function rankEntries(
  req: ProxiedRequest,
  res: ProxiedResponse,
): { act: string; body: unknown; list: Rec[] } | undefined {
  if (res.status !== 200) return undefined;
  const legacy = LEGACY.exec(req.pathname)?.[1];
  const act = legacy ?? (req.pathname === "/api/v1/rank" ? req.query.get("act") : null);
  if (!act) return undefined;
  const body = parse(res);
  const list = legacy ? body : (body as Body).data;
  return Array.isArray(list) ? { act, body, list: list as Rec[] } : undefined;
}

/** Short windows' ranks (the API's and the legacy file alike) keep only the entries `keep` lets through. */
function shortWindows(keep: (entry: Rec) => boolean): Mutation {
  return {
    response(req, res) {
      const rank = rankEntries(req, res);
      if (!rank || !shortWindow(rank.act, Date.now() / 1000)) return res;
      const kept = rank.list.filter(keep);
      rank.list.splice(0, rank.list.length, ...kept);
      return withBody(res, rank.body);
    },
  };
}

/**
 * Ranks computed from a snapshot that stopped 10 minutes before the run's first answer: entries
 * newer than that are missing (the cut is fixed, so every answer of the run agrees with the others).
 */
function staleShortWindows(): Mutation {
  let cut: number | undefined;
  const stale = shortWindows((e) => cut === undefined || (e.shijianchuo as number) <= cut);
  return {
    response(req, res) {
      if (cut === undefined && req.pathname === "/api/v1/feed" && res.status === 200) {
        const newest = (parse(res) as Body).data?.[0]?.shijianchuo;
        if (typeof newest === "number") cut = newest - 600;
      }
      return stale.response?.(req, res) ?? res;
    },
  };
}

/** The 13 acts of x-rank-windows (seed 4.2): another path is a 404 to keep. */
const ACTS = new Set(
  "yixiaoshi sanxiaoshi liuxiaoshi shierxiaoshi ershisixiaoshi sishibaxiaoshi jintian zuotian qiantian santian wutian qitian shiwutian".split(
    " ",
  ),
);

/** The legacy file of every window serves yesterday's rank (yesterday's, the day before's). */
const legacyOtherWindow: Mutation = {
  request(req) {
    const act = LEGACY.exec(req.pathname)?.[1];
    if (!act || !ACTS.has(act)) return req;
    return { ...req, pathname: `/plus/json/rank/${act === "zuotian" ? "qiantian" : "zuotian"}.json` };
  },
};

/**
 * Activity keywords matched in the name only: the answer's page is cut from every activity (read
 * once through the proxy itself) whose name holds a word of q, in the upstream's order.
 */
function keywordNameOnly(): Mutation {
  let all: Rec[] | undefined;
  const path = "/api/v1/shenghuo";
  const words = (q: string) =>
    q
      .split(/[|#\n]/)
      .map((w) => w.trim())
      .filter(Boolean);
  return {
    async admit(req) {
      if (all || req.pathname !== path || !req.query.get("q")) return undefined;
      const read: Rec[] = [];
      for (let page = 1; page <= 10; page++) {
        const res = await fetch(`http://${req.headers.host}${path}?pageSize=100&page=${page}`);
        const data = ((await res.json()) as Body).data ?? [];
        read.push(...data);
        if (data.length < 100) break;
      }
      all = read;
      return undefined;
    },
    response(req, res) {
      const q = req.query.get("q");
      if (!all || req.pathname !== path || res.status !== 200 || !q) return res;
      const page = intParam(req, "page", 1, 1000);
      const size = intParam(req, "pageSize", 20, 100);
      if (!page || !size) return res;
      const cate = req.query.get("cate");
      const matching = all.filter(
        (a) => (!cate || a.cate === cate) && words(q).some((w) => containsWord(String(a.name), w)),
      );
      const body = parse(res) as Body;
      body.data = matching.slice((page - 1) * size, page * size);
      if (body.meta) Object.assign(body.meta, { count: body.data.length, total: matching.length });
      return withBody(res, body);
    },
  };
}

export const TOO_LITTLE: PlantedBug[] = [
  {
    name: "search-last-page-short",
    breaks: "the last page of a search holds one result fewer than meta.total implies",
    mutation: lastPageShort("/api/v1/search", "limit", 50),
    expect: ["relation:search-last-page-count"],
  },
  {
    name: "shenghuo-last-page-short",
    breaks: "the last page of the activities holds one fewer than meta.total implies",
    mutation: lastPageShort("/api/v1/shenghuo", "pageSize", 100),
    expect: ["relation:shenghuo-last-page-count"],
  },
  {
    name: "rank-short-window-empty",
    breaks: "ranks of windows of at most 3 hours are always empty, while the feed shows alerts inside them",
    mutation: shortWindows(() => false),
    expect: ["relation:feed-items-in-window-rank"],
  },
  {
    name: "rank-short-window-stale",
    breaks: "ranks of windows of at most 3 hours miss the alerts of the last 10 minutes (a stale snapshot)",
    mutation: staleShortWindows(),
    expect: ["relation:feed-items-in-window-rank"],
  },
  {
    name: "legacy-rank-other-window",
    breaks: "the rank-as-JSON file serves yesterday's rank whatever its act",
    mutation: legacyOtherWindow,
    expect: ["relation:legacy-rank-equals-rank"],
  },
  {
    name: "shenghuo-keyword-name-only",
    breaks: "the activity keyword is matched in the name only, never the description",
    mutation: keywordNameOnly(),
    expect: ["relation:shenghuo-keyword-complete"],
  },
];
