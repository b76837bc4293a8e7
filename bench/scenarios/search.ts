import { join } from "node:path";
import { Prng } from "../../reference-server/data/prng.ts";
import * as V from "../../reference-server/data/vocab.ts";
import type { BenchContext } from "../context.ts";
import { type BenchDatabase, benchDatabase, isCached } from "../data.ts";
import { sequentialLatencies } from "../latency.ts";
import { REPO, startChild, urlOf } from "../procs.ts";
import { formatNumber, median, quantile } from "../stats.ts";
import type { Section } from "../types.ts";
import { RAISED_LIMIT } from "./throughput.ts";

const QUERY_SEED = 7;
const QUERIES_PER_KIND = 8;
const TARGET_SIZE = 200_000;
const MILLION = 1_000_000;
const TARGET_P99_MS = 20;

const CJK_PAIR = /^[\u4e00-\u9fff]{2}/;

/** Two-character Chinese words the generator writes (first two characters of its vocabulary), sorted. */
export function twoCharacterWords(): string[] {
  const lists: readonly (readonly string[])[] = [
    V.MALLS,
    V.BANKS,
    V.PERKS,
    V.CARRIERS,
    V.PRODUCTS.map((p) => p[0]),
  ];
  const words = new Set<string>();
  for (const list of lists)
    for (const w of list) {
      const m = CJK_PAIR.exec(w);
      if (m) words.add(m[0]);
    }
  return [...words].sort();
}

export interface QueryKind {
  id: string;
  label: string;
  paths: string[];
}

/** The query mix, the same on every run: seeded picks from the generator's own words. */
export function queryKinds(): QueryKind[] {
  const rng = new Prng(QUERY_SEED);
  const words = twoCharacterWords();
  const pick = () => rng.pick(words);
  const q = (params: Record<string, string | number>) =>
    `/api/v1/search?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;
  const times = <T>(f: () => T) => Array.from({ length: QUERIES_PER_KIND }, f);
  return [
    { id: "word", label: "one 2-character word (q)", paths: times(() => q({ q: pick() })) },
    {
      id: "or",
      label: "OR list of 3 words (q=a|b|c)",
      paths: times(() => q({ q: [pick(), pick(), pick()].join("|") })),
    },
    {
      id: "block",
      label: "word minus 2 block words (q, kp)",
      paths: times(() => q({ q: pick(), kp: `${pick()}|${pick()}` })),
    },
    {
      id: "price",
      label: "price range only (mip, mxp)",
      paths: times(() => {
        const low = rng.int(0, 200);
        return q({ mip: low, mxp: low + rng.int(5, 300) });
      }),
    },
  ];
}

interface SizeResult {
  db: Omit<BenchDatabase, "path">;
  kinds: { id: string; p50: number; p99: number; samples: number; non2xx: number; meanTotal: number }[];
}

export async function search(ctx: BenchContext): Promise<Section> {
  const million = ctx.args.million === "on" || (ctx.args.million === "cached" && isCached(MILLION));
  const sizes = ctx.args.quick ? [10_000] : [10_000, 200_000, ...(million ? [MILLION] : [])];
  const kinds = queryKinds();
  const results: SizeResult[] = [];
  for (const size of sizes) {
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
      const out: SizeResult["kinds"] = [];
      for (const kind of kinds) {
        const totals = await Promise.all(
          kind.paths.map(
            async (p) => ((await (await fetch(url + p)).json()) as { meta: { total: number } }).meta.total,
          ),
        );
        // Warm-up: the first pass reads pages from disk and compiles the statement shapes.
        await sequentialLatencies(url, kind.paths, ctx.warmupSeconds * 1000);
        const runs = [];
        for (let i = 0; i < ctx.runs; i++)
          runs.push(await sequentialLatencies(url, kind.paths, (ctx.seconds * 1000) / 2));
        const r = {
          id: kind.id,
          p50: median(runs.map((r) => quantile(r.samples, 0.5))),
          p99: median(runs.map((r) => quantile(r.samples, 0.99))),
          samples: runs.reduce((n, r) => n + r.samples.length, 0),
          non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
          meanTotal: totals.reduce((a, b) => a + b, 0) / totals.length,
        };
        out.push(r);
        ctx.log(
          `  ${kind.id}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${r.samples} requests, mean total ${Math.round(r.meanTotal)})`,
        );
      }
      const { path: _path, ...dbInfo } = db;
      results.push({ db: dbInfo, kinds: out });
    } finally {
      await server.stop(60_000);
    }
  }
  return report(ctx, kinds, results);
}

function report(ctx: BenchContext, kinds: QueryKind[], results: SizeResult[]): Section {
  const at = (size: number) => results.find((r) => r.db.size === size);
  const target = at(TARGET_SIZE);
  const worst = target?.kinds.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const rows = kinds.map((k) => [
    k.label,
    ...results.flatMap((r) => {
      const m = r.kinds.find((x) => x.id === k.id);
      return [m ? `${m.p50.toFixed(2)} / ${m.p99.toFixed(2)}` : "n/a", m ? formatNumber(m.meanTotal) : "n/a"];
    }),
  ]);
  return {
    id: "search",
    title: "Search latency as the data grows",
    method:
      `One client, one request at a time (keep-alive), ${ctx.runs} × ${(ctx.seconds / 2).toFixed(1)} s per query kind after a warm-up; ` +
      `p50/p99 of each run, median over runs, in ms (timed in the client: HTTP included). ${QUERIES_PER_KIND} queries per kind, ` +
      `picked with seed ${QUERY_SEED} from the generator's 2-character words and requested in turn; limit 20, page 1 (each answer also counts the total). ` +
      "Databases are generated once into .data/bench/ and reused while the generator's sources are unchanged.",
    tables: [
      {
        columns: [
          "query kind",
          ...results.flatMap((r) => [`${formatNumber(r.db.size)}: p50 / p99 ms`, "mean total hits"]),
        ],
        rows,
      },
      {
        caption: "The databases",
        columns: ["alerts", "file MB", "generation s", "this run"],
        rows: results.map((r) => [
          formatNumber(r.db.size),
          formatNumber(r.db.bytes / 1e6),
          formatNumber(r.db.generationSeconds),
          r.db.reused ? "reused (generation time from the run that made it)" : "generated",
        ]),
      },
    ],
    targets: [
      {
        name: `search p99 < ${TARGET_P99_MS} ms at ${formatNumber(TARGET_SIZE)} alerts (every query kind)`,
        met: worst ? worst.p99 < TARGET_P99_MS : null,
        measured: worst
          ? `worst ${worst.p99.toFixed(2)} ms (${worst.id}); ${target?.kinds.map((k) => `${k.id} ${k.p99.toFixed(2)}`).join(", ")} ms`
          : "not run (--quick searches 10k only)",
      },
    ],
    notes: [
      results.some((r) => r.db.size === MILLION)
        ? "1M alerts: its database is generated only with --1m (once; ~8 minutes on this machine) and reused afterwards."
        : `1M alerts skipped (${ctx.args.million === "off" ? "--no-1m or --quick" : "no cached database: run once with --1m, ~8 minutes here"}).`,
    ],
    data: { queries: kinds, results },
  };
}
