import { join } from "node:path";
import { Prng } from "../../reference-server/data/prng.ts";
import * as V from "../../reference-server/data/vocab.ts";
import type { BenchContext } from "../context.ts";
import { type BenchDatabase, benchDatabase, isCached } from "../data.ts";
import { OneConnection, sequentialLatencies } from "../latency.ts";
import { REPO, startChild, urlOf } from "../procs.ts";
import { formatNumber, median, quantile } from "../stats.ts";
import type { Section } from "../types.ts";
import { RAISED_LIMIT } from "./throughput.ts";

const QUERY_SEED = 7;
/** Queries repeated in turn (the server's count cache warm). */
const REPEATED_PER_KIND = 8;
/** Queries sent once each, never seen before by that server (its count cache cold). */
const FIRST_SEEN_PER_KIND = 150;
const TARGET_SIZE = 200_000;
const MILLION = 1_000_000;
const TARGET_P99_MS = 20;
/** A p99 above this share of the target is reported as borderline, with its cause. */
const BORDERLINE = 0.75;

const CJK_PAIRS = /(?=([\u4e00-\u9fff]{2}))/g;

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** Every 2-character Chinese substring of the generator's vocabulary (so every one can occur), sorted. */
export function twoCharacterWords(): string[] {
  const words = new Set<string>();
  for (const s of strings(Object.values(V))) for (const m of s.matchAll(CJK_PAIRS)) words.add(m[1] as string);
  return [...words].sort();
}

export interface QueryKind {
  id: string;
  label: string;
  /** Distinct paths: the first REPEATED_PER_KIND are repeated, the rest are sent once each. */
  paths: string[];
}

const searchPath = (params: Record<string, string | number>) =>
  `/api/v1/search?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** `count` distinct paths from a seeded maker (fewer if the maker runs out of new ones). */
function distinct(count: number, make: () => string): string[] {
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < count * 50; tries++) out.add(make());
  return [...out];
}

/** The query mix, the same on every run: seeded picks from the generator's own words. */
export function queryKinds(): QueryKind[] {
  const rng = new Prng(QUERY_SEED);
  const words = twoCharacterWords();
  const pick = () => rng.pick(words);
  const n = REPEATED_PER_KIND + FIRST_SEEN_PER_KIND;
  return [
    { id: "word", label: "one 2-character word (q)", paths: distinct(n, () => searchPath({ q: pick() })) },
    {
      id: "or",
      label: "OR list of 3 words (q=a|b|c)",
      paths: distinct(n, () => searchPath({ q: [pick(), pick(), pick()].join("|") })),
    },
    {
      id: "block",
      label: "word minus 2 block words (q, kp)",
      paths: distinct(n, () => searchPath({ q: pick(), kp: `${pick()}|${pick()}` })),
    },
    {
      id: "price",
      label: "price range only (mip, mxp)",
      paths: distinct(n, () => {
        const low = rng.int(0, 200);
        return searchPath({ mip: low, mxp: low + rng.int(5, 300) });
      }),
    },
  ];
}

interface Latency {
  p50: number;
  p99: number;
  samples: number;
}

interface KindResult {
  id: string;
  repeated: Latency;
  firstSeen: Latency;
  non2xx: number;
  meanTotal: number;
}

interface SizeResult {
  db: Omit<BenchDatabase, "path">;
  kinds: KindResult[];
}

/** Each path once, in order, timed: the latency of queries this server has not answered before. */
async function firstSeen(url: string, paths: string[]) {
  const client = new OneConnection(url);
  const samples: number[] = [];
  const totals: number[] = [];
  let non2xx = 0;
  try {
    for (const p of paths) {
      const { ms, status, body } = await client.get(p);
      samples.push(ms);
      if (status !== 200) non2xx++;
      totals.push((JSON.parse(body) as { meta?: { total?: number } }).meta?.total ?? 0);
    }
  } finally {
    client.close();
  }
  return { samples, totals, non2xx };
}

async function measureSize(ctx: BenchContext, size: number, kinds: QueryKind[]): Promise<SizeResult> {
  ctx.log(`search: database of ${size.toLocaleString("en-US")} alerts`);
  const db = await benchDatabase(size);
  ctx.log(
    `  ${db.reused ? "reused" : "generated"} (generation ${db.generationSeconds.toFixed(1)} s, ${(db.bytes / 1e6).toFixed(0)} MB)`,
  );
  const server = await startChild(join(REPO, "bench/servers/reference.ts"), {
    dbPath: db.path,
    size,
    clockStartSeconds: db.referenceTime,
    rateLimit: RAISED_LIMIT,
  });
  try {
    const url = urlOf(server);
    const out: KindResult[] = [];
    for (const kind of kinds) {
      const repeatedPaths = kind.paths.slice(0, REPEATED_PER_KIND);
      // Warm-up: reads the pages from disk, prepares the statement shapes, fills the count cache.
      await sequentialLatencies(url, repeatedPaths, ctx.warmupSeconds * 1000);
      const runs = [];
      for (let i = 0; i < ctx.runs; i++)
        runs.push(await sequentialLatencies(url, repeatedPaths, (ctx.seconds * 1000) / 2));
      const once = await firstSeen(url, kind.paths.slice(REPEATED_PER_KIND));
      const r: KindResult = {
        id: kind.id,
        repeated: {
          p50: median(runs.map((r) => quantile(r.samples, 0.5))),
          p99: median(runs.map((r) => quantile(r.samples, 0.99))),
          samples: runs.reduce((n, r) => n + r.samples.length, 0),
        },
        firstSeen: {
          p50: quantile(once.samples, 0.5),
          p99: quantile(once.samples, 0.99),
          samples: once.samples.length,
        },
        non2xx: runs.reduce((n, r) => n + r.non2xx, once.non2xx),
        meanTotal: once.totals.reduce((a, b) => a + b, 0) / once.totals.length,
      };
      out.push(r);
      ctx.log(
        `  ${kind.id}: first seen p50 ${r.firstSeen.p50.toFixed(2)} / p99 ${r.firstSeen.p99.toFixed(2)} ms; ` +
          `repeated p50 ${r.repeated.p50.toFixed(2)} / p99 ${r.repeated.p99.toFixed(2)} ms (mean total ${Math.round(r.meanTotal)})`,
      );
    }
    const { path: _path, ...dbInfo } = db;
    return { db: dbInfo, kinds: out };
  } finally {
    await server.stop(60_000);
  }
}

export async function search(ctx: BenchContext): Promise<Section> {
  const million = ctx.args.million === "on" || (ctx.args.million === "cached" && isCached(MILLION));
  const sizes = ctx.args.quick ? [10_000] : [10_000, TARGET_SIZE, ...(million ? [MILLION] : [])];
  const kinds = queryKinds();
  const results: SizeResult[] = [];
  for (const size of sizes) results.push(await measureSize(ctx, size, kinds));
  return report(ctx, kinds, results);
}

const ms = (l: Latency) => `${l.p50.toFixed(2)} / ${l.p99.toFixed(2)}`;

function report(ctx: BenchContext, kinds: QueryKind[], results: SizeResult[]): Section {
  const target = results.find((r) => r.db.size === TARGET_SIZE);
  const worst = target?.kinds.reduce((a, b) => (b.firstSeen.p99 > a.firstSeen.p99 ? b : a));
  const worstRepeated = target?.kinds.reduce((a, b) => (b.repeated.p99 > a.repeated.p99 ? b : a));
  const table = (caption: string, pick: (k: KindResult) => Latency) => ({
    caption,
    columns: ["query kind", ...results.map((r) => `${formatNumber(r.db.size)} alerts: p50 / p99 ms`)],
    rows: kinds.map((k) => [
      k.label,
      ...results.map((r) => {
        const m = r.kinds.find((x) => x.id === k.id);
        return m ? ms(pick(m)) : "n/a";
      }),
    ]),
  });
  const cached = results.find((r) => r.db.size === MILLION);
  return {
    id: "search",
    title: "Search latency as the data grows",
    method:
      "One client, one request at a time (keep-alive), timed in the client (HTTP included), in ms. Queries are picked with " +
      `seed ${QUERY_SEED} from the 2-character Chinese substrings of the generator's vocabulary; limit 20, page 1, and every ` +
      "answer counts its total. The server caches totals per filter until the data changes, so two figures: " +
      `**first seen** — ${FIRST_SEEN_PER_KIND} distinct queries per kind, each sent once (the count is computed), p50/p99 over them; ` +
      `**repeated** — ${REPEATED_PER_KIND} queries per kind in turn, ${ctx.runs} × ${(ctx.seconds / 2).toFixed(1)} s after a warm-up ` +
      "(totals cached), median of the runs' p50/p99. Databases are generated once into .data/bench/ and reused while the generator's sources are unchanged.",
    tables: [
      table("First seen (totals computed)", (k) => k.firstSeen),
      table("Repeated (totals cached by the server)", (k) => k.repeated),
      {
        caption: "Mean total hits per query (first-seen set) and the databases",
        columns: ["", ...results.map((r) => `${formatNumber(r.db.size)} alerts`)],
        rows: [
          ...kinds.map((k) => [
            k.label,
            ...results.map((r) => formatNumber(r.kinds.find((x) => x.id === k.id)?.meanTotal ?? Number.NaN)),
          ]),
          ["database file MB", ...results.map((r) => formatNumber(r.db.bytes / 1e6))],
          [
            "generation s (server start on an empty file)",
            ...results.map((r) => formatNumber(r.db.generationSeconds)),
          ],
          ["this run", ...results.map((r) => (r.db.reused ? "reused" : "generated"))],
        ],
      },
    ],
    targets: [
      {
        name: `search p99 < ${TARGET_P99_MS} ms at ${formatNumber(TARGET_SIZE)} alerts (every query kind, first seen)`,
        met: worst ? worst.firstSeen.p99 < TARGET_P99_MS : null,
        value: worst?.firstSeen.p99,
        unit: " ms",
        measured: worst
          ? `worst ${worst.firstSeen.p99.toFixed(2)} ms (${worst.id}); ${target?.kinds.map((k) => `${k.id} ${k.firstSeen.p99.toFixed(2)}`).join(", ")} ms; ` +
            `repeated worst ${worstRepeated?.repeated.p99.toFixed(2)} ms (${worstRepeated?.id})`
          : "not run (--quick searches 10k only)",
      },
    ],
    notes: [
      cached
        ? `1M alerts: searched because its database was cached (or --1m); generating it took ${formatNumber(cached.db.generationSeconds)} s on this machine, so a fresh clone skips it unless --1m is given.`
        : `1M alerts skipped (${ctx.args.million === "off" ? "--no-1m or --quick" : "no cached database: run once with --1m, about 5 minutes here"}).`,
      ...(worst && worst.firstSeen.p99 >= TARGET_P99_MS * BORDERLINE
        ? [
            (worst.firstSeen.p99 >= TARGET_P99_MS
              ? "Why first-seen searches miss: "
              : `Borderline: the worst first-seen p99 at ${formatNumber(TARGET_SIZE)} is within ${Math.round((1 - BORDERLINE) * 100)}% of the target, so a rerun on this noisy machine may miss it. Why: `) +
              `the worst kind is ${worst.id}. Every answer carries the exact \`meta.total\`, and counting walks the FTS ` +
              "doclists of every match (about 0.1 µs per match here, with the index merged into one segment and read " +
              "through a memory map); the server caches a total per filter, which is why repeated queries are fast. " +
              "The cost grows with the matches (compare the mean totals below), so OR lists of common words are the " +
              "slowest. A lone 2-character word is counted in one lookup (gram_docs, per-token document counts kept " +
              "at write time); OR lists and block words stay linear in their matches unless the contract allowed an " +
              "approximate total above some size.",
          ]
        : []),
      "p99 over one-at-a-time requests on a shared 2-core machine includes scheduling stalls of a few ms; compare p50 for the cost of the query itself.",
    ],
    data: { queries: kinds, results },
  };
}
