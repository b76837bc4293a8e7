/** The search scenario's section of the report: its tables, targets and method text. */
import type { BenchContext } from "../context.ts";
import { formatNumber, median } from "../stats.ts";
import type { Section, Table, TargetResult } from "../types.ts";
import {
  FIRST_SEEN_PER_KIND,
  QUERY_SEED,
  type QueryKind,
  REPEATED_PER_KIND,
  TIERING_WARMUP_PER_KIND,
  WARMUP_PER_KIND,
} from "./search-queries.ts";
import {
  CHECKED_PER_KIND,
  type FirstSeenWaits,
  GC_OVERLAP_MS,
  type KindResult,
  type Latency,
  type MachineFloor,
  MILLION,
  type SizeResult,
  type SlowSample,
  TARGET_MILLION_GENERATION_S,
  TARGET_MILLION_MB,
  TARGET_P99_MS,
  TARGET_SIZE,
  V8_WORKERS_RAN_MS,
} from "./search-results.ts";

const ms = (l: Latency) => `${l.p50.toFixed(2)} / ${l.p99.toFixed(2)}`;

const f1 = (n: number | undefined) => (n === undefined ? "?" : n.toFixed(1));
/** Figures from /proc/stat come in 10 ms ticks: whole ms. */
const f0 = (n: number | undefined) => (n === undefined ? "?" : n.toFixed(0));

/**
 * One slow sample: its ms, then where the time went: the run-queue waits of the server's and the
 * client's main threads, the server's CPU, its V8 workers' CPU and wait, the machine's busy CPU
 * (both CPUs, ticks) with the part no thread of the server or the client used, steal, CPU pressure.
 */
/** The query of a search path as a reader reads it (`q=天猫&kp=...`); the path itself when it does not decode. */
function queryOf(path: string): string {
  const query = path.slice(path.indexOf("?") + 1);
  try {
    return decodeURIComponent(query);
  } catch {
    return query;
  }
}

function sampleText(x: SlowSample): string {
  const others =
    x.machineBusyMs === undefined
      ? undefined
      : x.machineBusyMs - x.serverCpuMs - x.serverOtherThreadsCpuMs - x.clientCpuMs;
  return (
    `${x.ms.toFixed(1)} ms: waited server ${f1(x.serverWaitMs)} + client ${f1(x.clientWaitMs)}; ` +
    `server cpu ${f1(x.serverCpuMs)}, V8 workers cpu ${f1(x.serverV8WorkersCpuMs)} / wait ${f1(x.serverV8WorkersWaitMs)}; ` +
    `machine busy ${f0(x.machineBusyMs)} (others ${f0(others)}), steal ${f0(x.machineStealMs)}, pressure ${f1(x.cpuPressureMs)}` +
    (x.serverGcMs >= GC_OVERLAP_MS ? `; server GC ${x.serverGcMs.toFixed(1)} (${x.serverGcKind})` : "") +
    (x.clientGc ? "; client GC" : "") +
    `; ${queryOf(x.path)}`
  );
}

export const slowestText = (w: FirstSeenWaits) => w.slowest.map(sampleText).join(" · ");

export const waitsText = (w: FirstSeenWaits) =>
  `${w.p99LessCpuWaits.toFixed(2)} / ${w.waited1ms} / ${w.serverCpuP99.toFixed(2)} / ${w.clientGc}`;

/** Server GC samples / ms; V8 workers ran / waited ≥ 1 ms; the machine's CPU during the samples: others' share, steal, pressure. */
export function elseText(w: FirstSeenWaits): string {
  const m = w.machine;
  const share = (x: number) => (m && m.cpuMs > 0 ? `${Math.round((100 * x) / m.cpuMs)}%` : "n/a");
  return (
    `${w.serverGc} / ${w.serverGcPauseMs === undefined ? "n/a" : w.serverGcPauseMs.toFixed(1)} / ` +
    `${w.v8WorkersRan} / ${w.v8WorkersWaited1ms} / ` +
    (m
      ? `${share(m.othersMs)} / ${share(m.stealMs)} / ${m.pressureMs === undefined ? "n/a" : `${Math.round((100 * m.pressureMs) / m.wallMs)}%`}`
      : "n/a / n/a / n/a")
  );
}

/** What the slowest samples (3 per kind, 200k and up) had in common: the finding the notes state. */
function slowestFinding(results: SizeResult[]): string {
  const slow = results
    .filter((r) => r.db.size >= TARGET_SIZE)
    .flatMap((r) => r.kinds.flatMap((k) => k.firstSeenWaits?.slowest ?? []));
  if (slow.length === 0) return "Slowest samples: not measured (no /proc, or 200k not run).";
  const count = (f: (x: (typeof slow)[number]) => boolean) => slow.filter(f).length;
  const gcList = slow
    .filter((x) => x.serverGcMs >= GC_OVERLAP_MS)
    .map((x) => `${x.serverGcMs.toFixed(1)} ms ${x.serverGcKind} in a ${x.ms.toFixed(1)} ms sample`)
    .join(", ");
  const others = (x: (typeof slow)[number]) =>
    (x.machineBusyMs ?? 0) - x.serverCpuMs - x.serverOtherThreadsCpuMs - x.clientCpuMs;
  const waits = results
    .filter((r) => r.db.size >= TARGET_SIZE)
    .flatMap((r) => r.kinds.flatMap((k) => (k.firstSeenWaits ? [k.firstSeenWaits] : [])));
  const pooled = (split: "byServerGc" | "byV8Workers", side: "ran" | "idle") => {
    const all = waits.map((w) => w[split]);
    const n = all.reduce((a, b) => a + b[side].samples, 0);
    if (n === 0) return "none";
    // The median of the kinds' p50s: a summary, the per-kind figures are in results.json.
    return `${n} samples, p50 of the kinds' p50 ${median(all.filter((b) => b[side].samples > 0).map((b) => b[side].p50)).toFixed(2)} ms`;
  };
  return (
    `Samples at 200k and up overlapping a GC pause of the server: ${pooled("byServerGc", "ran")}; without: ${pooled("byServerGc", "idle")}. ` +
    `Samples during which the server's V8 workers ran (its GC's helpers, or background compilation): ${pooled("byV8Workers", "ran")}; ` +
    `without: ${pooled("byV8Workers", "idle")}. ` +
    `The ${slow.length} slowest first-seen samples at 200k and up (3 per kind): ` +
    `${count((x) => x.serverV8WorkersCpuMs >= V8_WORKERS_RAN_MS)} had the server's V8 workers on a CPU and ` +
    `${count((x) => x.serverV8WorkersWaitMs >= 1)} had them waiting ≥ 1 ms for one; ` +
    `${count((x) => x.serverGcMs >= GC_OVERLAP_MS)} overlapped a GC pause of the server${gcList ? ` (${gcList})` : ""}; ` +
    `${count((x) => x.serverWaitMs >= 1)} had the server's main thread and ${count((x) => x.clientWaitMs >= 1)} the client's waiting ≥ 1 ms for a CPU; ` +
    `${count((x) => others(x) >= 10)} saw ≥ 10 ms of CPU (a tick) used by other processes; ` +
    `${count((x) => (x.machineStealMs ?? 0) > 0)} had steal; ${count((x) => x.clientGc)} overlapped a GC of the client.`
  );
}

/** The first-seen p99 target of one size: every kind within it. */
function latencyTarget(results: SizeResult[], size: number, limit: number): TargetResult {
  const r = results.find((x) => x.db.size === size);
  const name = `search p99 ≤ ${limit} ms at ${formatNumber(size)} alerts (every query kind, first seen)`;
  if (!r) return { name, met: null, measured: "not run (--quick searches 10k only; --no-1m skips 1M)" };
  const worst = r.kinds.reduce((a, b) => (b.firstSeen.p99 > a.firstSeen.p99 ? b : a));
  const over = worst.firstSeen.p99 - limit;
  return {
    name,
    met: worst.firstSeen.p99 <= limit,
    value: worst.firstSeen.p99,
    unit: " ms",
    measured:
      `worst ${worst.firstSeen.p99.toFixed(2)} ms (${worst.id}${over > 0 ? `, ${over.toFixed(2)} ms over` : ""}); ` +
      `p99 ${r.kinds.map((k) => `${k.id} ${k.firstSeen.p99.toFixed(2)}`).join(", ")} ms; ` +
      `p50 ${r.kinds.map((k) => `${k.id} ${k.firstSeen.p50.toFixed(2)}`).join(", ")} ms` +
      (r.floor
        ? `; this run's machine floor: p99 ${r.floor.p99.toFixed(2)} ms (${r.floor.cpuMicros} µs of CPU per answer; ` +
          `${r.floor.chunksOverTarget} of ${r.floor.chunkP99s.length} kind-sized chunks over the target)`
        : ""),
  };
}

/** The machine floor beside the sizes it was measured at (search-floor.ts); none where it was not. */
function floorTable(results: SizeResult[]): Table[] {
  const sized = results.filter((r): r is SizeResult & { floor: MachineFloor } => r.floor !== undefined);
  if (sized.length === 0) return [];
  const row = (label: string, cell: (f: MachineFloor) => string) => [
    label,
    ...sized.map((r) => cell(r.floor)),
  ];
  return [
    {
      caption:
        "Machine floor (a bare node:http server burning the reference server's median first-seen CPU per answer, " +
        "answering the same bytes, one request at a time through the same client; bench/servers/spin-floor.ts)",
      columns: ["", ...sized.map((r) => `${formatNumber(r.db.size)} alerts`)],
      rows: [
        row(
          "CPU per answer, µs (the reference server main thread's median per first-seen sample, every kind)",
          (f) => String(f.cpuMicros),
        ),
        row(
          "of it a bare answer's own (node:http, no spin: the floor's median) / the spin, µs",
          (f) => `${f.ownMicros} / ${f.spinMicros}`,
        ),
        row("the floor's CPU per answer as measured (its main thread, median), µs", (f) =>
          (f.cpuP50 * 1000).toFixed(0),
        ),
        row("answer body, bytes", (f) => formatNumber(f.bodyBytes)),
        row("samples (as many as every kind's first-seen ones)", (f) => String(f.samples)),
        row("p50 / p99 ms", (f) => `${f.p50.toFixed(2)} / ${f.p99.toFixed(2)}`),
        row("p99 of each kind-sized chunk, in order, ms", (f) =>
          f.chunkP99s.map((ms) => ms.toFixed(2)).join(", "),
        ),
        row(
          "chunks over the size's target",
          (f) => `${f.chunksOverTarget} of ${f.chunkP99s.length} (target ${f.targetMs} ms)`,
        ),
        row("samples over the target", (f) => String(f.samplesOverTarget)),
        row("samples that waited ≥ 1 ms for a CPU", (f) => String(f.waited1ms)),
      ],
    },
  ];
}

export function report(
  ctx: BenchContext,
  kinds: QueryKind[],
  results: SizeResult[],
  clientNice: number,
): Section {
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
  const million = results.find((r) => r.db.size === MILLION);
  const checked = results.filter((r) => r.totals);
  const wrong = checked.flatMap((r) => r.totals?.wrong ?? []);
  const targets: TargetResult[] = [
    latencyTarget(results, TARGET_SIZE, TARGET_P99_MS[TARGET_SIZE] as number),
    latencyTarget(results, MILLION, TARGET_P99_MS[MILLION] as number),
    million
      ? {
          name: `database of 1,000,000 alerts ≤ ${TARGET_MILLION_MB} MB`,
          met: million.db.bytes / 1e6 <= TARGET_MILLION_MB,
          value: million.db.bytes / 1e6,
          unit: " MB",
          measured: `${formatNumber(million.db.bytes / 1e6)} MB (${(million.db.bytes / 1e6 / TARGET_MILLION_MB).toFixed(2)}× the target)`,
        }
      : { name: `database of 1,000,000 alerts ≤ ${TARGET_MILLION_MB} MB`, met: null, measured: "1M not run" },
    million
      ? {
          name: `generation of 1,000,000 alerts ≤ ${TARGET_MILLION_GENERATION_S} s`,
          met: million.db.generationSeconds <= TARGET_MILLION_GENERATION_S,
          value: million.db.generationSeconds,
          unit: " s",
          measured: `${formatNumber(million.db.generationSeconds)} s (server start on an empty file; ${million.db.reused ? "from the run that generated the cached file" : "this run"})`,
        }
      : {
          name: `generation of 1,000,000 alerts ≤ ${TARGET_MILLION_GENERATION_S} s`,
          met: null,
          measured: "1M not run",
        },
    {
      name: "search totals equal a brute-force count (200k and 1M)",
      met: checked.length === 0 ? null : wrong.length === 0,
      measured:
        checked.length === 0
          ? "not run (--quick)"
          : `${checked.map((r) => `${formatNumber(r.db.size)}: ${(r.totals?.checked ?? 0) - (r.totals?.wrong.length ?? 0)}/${r.totals?.checked} equal`).join("; ")}` +
            (wrong.length
              ? `; first wrong: ${wrong[0]?.path} served ${wrong[0]?.served}, counted ${wrong[0]?.counted}`
              : ""),
    },
  ];
  return {
    id: "search",
    title: "Search latency as the data grows",
    method:
      "One client, one request at a time (keep-alive), timed in the client (HTTP included), in ms. The client runs in its own " +
      "small process (bench/search-client.ts, node --expose-gc --single-threaded-gc --no-incremental-marking --no-memory-reducer): a raw node:net socket reading into one reused " +
      "buffer, the request bytes prebuilt, each answer's end found from Content-Length or the last chunk without building a string " +
      "(bench/raw-http.ts), timed with process.hrtime.bigint(); a full gc() before each batch and a young-generation one before each " +
      "request keep its collection outside the timed part, and the samples reach the bench over IPC only after the batch. " +
      (clientNice < 0
        ? `The client process runs at nice ${clientNice} (the server at the normal priority), so that the client's wait for a CPU once the answer has arrived is not in the sample. `
        : "The client runs at the normal priority (raising it was not allowed here): its wait for a CPU once the answer has arrived is in the sample. ") +
      "Queries are picked with " +
      `seed ${QUERY_SEED} from the 2-character Chinese substrings of the generator's vocabulary; limit 20, page 1, and every ` +
      "answer counts its total. The server caches answers per query until the data changes, so two figures: " +
      `**first seen** — ${FIRST_SEEN_PER_KIND} distinct queries per kind, each sent once (the total is computed), p50/p99 over them, ` +
      `after ${WARMUP_PER_KIND + TIERING_WARMUP_PER_KIND} other first-seen queries of every kind sent once each, the kinds in turn, and not measured ` +
      "(V8 done compiling the code that answers a new query, as in a server that has been answering searches: finding 14; " +
      "one-word queries run out of words, so further pages of warm-up words make up theirs; none has a measured query's filter); " +
      `**repeated** — ${REPEATED_PER_KIND} queries per kind in turn, ${ctx.runs} × ${(ctx.seconds / 2).toFixed(1)} s after a warm-up ` +
      "(answers cached), median of the runs' p50/p99. Databases are generated once into .data/bench/ and reused while the " +
      "generator's sources are unchanged; a full run always searches 1M (generating it when missing). From 200k up, the " +
      `totals served for the first ${CHECKED_PER_KIND} first-seen queries of each kind are checked against a brute-force count ` +
      "over every alert of the file (bench/search-totals.ts).",
    tables: [
      table("First seen (totals computed)", (k) => k.firstSeen),
      {
        caption:
          "First seen, where the time went (Linux): p99 less the CPU waits ms / samples that waited ≥ 1 ms for a CPU / the server's CPU time p99 ms / samples overlapping the client's GC",
        columns: ["query kind", ...results.map((r) => `${formatNumber(r.db.size)} alerts`)],
        rows: kinds.map((k) => [
          k.label,
          ...results.map((r) => {
            const w = r.kinds.find((x) => x.id === k.id)?.firstSeenWaits;
            return w ? waitsText(w) : "n/a";
          }),
        ]),
      },
      {
        caption:
          "First seen, what else ran during the samples (Linux): samples overlapping a GC pause of the server / those pauses' ms inside the samples / samples in which the server's V8 worker threads (GC helpers, background compilation) ran / waited ≥ 1 ms for a CPU / share of the machine's CPU used by other processes (neither the server nor the client) / stolen by the hypervisor / share of the samples' wall time in which some task of the machine had no CPU",
        columns: ["query kind", ...results.map((r) => `${formatNumber(r.db.size)} alerts`)],
        rows: kinds.map((k) => [
          k.label,
          ...results.map((r) => {
            const w = r.kinds.find((x) => x.id === k.id)?.firstSeenWaits;
            return w ? elseText(w) : "n/a";
          }),
        ]),
      },
      {
        caption:
          "First seen, the 3 slowest samples: where their time went (run-queue waits of the two main threads; the server's CPU; its V8 workers' CPU and wait; the machine's busy CPU over both CPUs, of it others' (in 10 ms ticks); steal; CPU pressure; all ms; then the query)",
        columns: ["query kind", ...results.map((r) => `${formatNumber(r.db.size)} alerts`)],
        rows: kinds.map((k) => [
          k.label,
          ...results.map((r) => {
            const w = r.kinds.find((x) => x.id === k.id)?.firstSeenWaits;
            return w ? slowestText(w) : "n/a";
          }),
        ]),
      },
      {
        caption:
          "First seen, the processes besides the server and the client that used the most CPU while each kind's first-seen queries ran (ms)",
        columns: ["query kind", ...results.map((r) => `${formatNumber(r.db.size)} alerts`)],
        rows: kinds.map((k) => [
          k.label,
          ...results.map((r) => {
            const w = r.kinds.find((x) => x.id === k.id)?.firstSeenWaits;
            return w ? w.topProcesses.map((p) => `${p.command}: ${p.cpuMs}`).join("; ") || "none" : "n/a";
          }),
        ]),
      },
      ...floorTable(results),
      table("Repeated (answers cached by the server)", (k) => k.repeated),
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
          [
            "server RSS after the searches, MB",
            ...results.map((r) => formatNumber(r.serverRssMB ?? Number.NaN)),
          ],
          [
            "of which pages of the database file (SQLite's memory map), MB",
            ...results.map((r) => formatNumber(r.serverRssFileMB ?? Number.NaN)),
          ],
          [
            "server start to ready on the existing file, s (reads the file and every token set)",
            ...results.map((r) =>
              r.serverStartMs === undefined ? "n/a" : (r.serverStartMs / 1000).toFixed(2),
            ),
          ],
          [
            "machine load average (1 min) after the searches, 2 cores",
            ...results.map((r) => (r.loadAverage === undefined ? "n/a" : r.loadAverage.toFixed(1))),
          ],
          [
            "totals checked by brute force",
            ...results.map((r) =>
              r.totals ? `${r.totals.checked - r.totals.wrong.length}/${r.totals.checked} equal` : "n/a",
            ),
          ],
        ],
      },
    ],
    targets,
    notes: [
      million
        ? `1M alerts: ${million.db.reused ? "the cached database was reused" : "generated in this run"} (generation ${formatNumber(million.db.generationSeconds)} s).`
        : `1M alerts skipped (${ctx.args.quick ? "--quick" : "--no-1m"}).`,
      "How totals are counted (reference-server/db/fast-count.ts): every alert has a dense doc number, and each index " +
        "token (a bigram of title or content, a category facet) the set of alerts holding it, kept at write time " +
        "(term_docs: sorted doc numbers, or a TypedFastBitSet bitset when denser than 1 in 32). An OR list, block words " +
        "and a category are cardinalities of unions and differences of those sets (one pass over maxDoc/32 words, " +
        "≈ 0.1–0.3 ms at 200k whatever the matches); a price range alone sums whole-unit price buckets and the distinct prices of its partial ends " +
        "(price_buckets, price_counts); sets are kept in memory as read, up to 128 MB. " +
        "Words of 3 or more characters are the AND of their bigrams' sets, each candidate's text then checked on its row; " +
        "a price range with words or a category is checked on the in-memory price column by doc (price-column.ts), not on the rows.",
      "p99 over one-at-a-time requests on a shared 2-core machine includes scheduling stalls of a few ms; compare p50 for the cost of the query itself. " +
        "The targets are judged on the plain p99; the machine floor table shows, in the same run, what the machine's stalls alone make of the server's median work per answer. The 'where the time went' tables tell a sample slowed by the machine from one slowed by the server: around every " +
        "first-seen request (outside its timed part) the client process reads the run-queue wait of the server's and its own main thread (/proc/PID/task/TID/schedstat: time runnable but " +
        "without a CPU, because another thread had it; the two summed, as the threads take turns, and the figure kept at or above the server's CPU time), the CPU time and wait of the server's " +
        "main thread and of its other threads (V8's workers, named V8Worker, run the parallel scavenge and the concurrent marking: a main thread in a parallel pause waits for them, asleep, " +
        "so their run-queue wait lengthens its pause), the machine's /proc/stat (busy, steal, idle; 10 ms ticks, so meaningful summed over a kind more than per sample) and " +
        "/proc/pressure/cpu, notes its own GC pauses, and names the processes that used the most CPU over each kind (bench/cpu-waits.ts); " +
        "the server's own GC pauses come from the server itself: the scenario starts it through bench/servers/reference-gc.ts, which prints each pause (epoch start, duration, kind), matched to the samples' epoch spans. " +
        "The server reads its whole database file and every token set before it reports ready (reference-server/db/prewarm.ts, fast-count.ts), " +
        "so no first-seen search waits on the disk or on a read-ahead.",
      slowestFinding(results),
    ],
    data: { queries: kinds, results, clientNice },
  };
}
