import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import type { BenchContext } from "../context.ts";
import type { Waits } from "../cpu-waits.ts";
import { benchDatabase } from "../data.ts";
import { type Child, REPO, startChild, urlOf } from "../procs.ts";
import { SearchClient } from "../search-client-process.ts";
import { checkTotals, type TotalsCheck } from "../search-totals.ts";
import { median, quantile } from "../stats.ts";
import type { Section } from "../types.ts";
import { floorText, measureFloor } from "./search-floor.ts";
import { type QueryKind, queryKinds, REPEATED_PER_KIND, warmupInTurn } from "./search-queries.ts";
import { elseText, report, slowestText, waitsText } from "./search-report.ts";
import {
  CHECKED_PER_KIND,
  type FirstSeenWaits,
  GC_OVERLAP_MS,
  type KindResult,
  type MachineSums,
  MILLION,
  type SampleSpread,
  type ServerGc,
  type SizeResult,
  TARGET_P99_MS,
  TARGET_SIZE,
  V8_WORKERS_RAN_MS,
} from "./search-results.ts";
import { RAISED_LIMIT } from "./throughput-plan.ts";

/** A line of /proc/PID/status (Linux) in MB: VmRSS, RssFile (pages of mapped files: the database). */
function statusMB(pid: number | undefined, field: "VmRSS" | "RssFile"): number | undefined {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Each path once, in order, timed by the client process (search-client.ts): the latency of
 * queries this server has not answered before, with where each sample's time went.
 */
async function firstSeen(
  client: SearchClient,
  url: string,
  paths: string[],
  serverPid: number | undefined,
  serverGcs: ServerGc[],
) {
  const once = await client.once({ url, paths, serverPid });
  // The server prints a pause once V8 has handed it to its observer: a moment after the last sample.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const gcMs = once.spans.map(([a, b]) =>
    serverGcs.reduce((sum, g) => sum + Math.max(0, Math.min(b, g.at + g.ms) - Math.max(a, g.at)), 0),
  );
  const gcKinds = once.spans.map(([a, b]) =>
    [...new Set(serverGcs.filter((g) => g.at < b && g.at + g.ms > a).map((g) => g.kind))].join("+"),
  );
  const { samples, waits } = once;
  const non2xx = once.statuses.filter((s) => s < 200 || s > 299).length;
  const measured: FirstSeenWaits | undefined =
    waits.length === samples.length
      ? {
          // The two threads' waits may overlap in time: never below the server's own CPU time.
          p99LessCpuWaits: quantile(
            samples.map((ms, i) => Math.max(ms - (waits[i]?.cpuWaitMs ?? 0), waits[i]?.serverCpuMs ?? 0)),
            0.99,
          ),
          waited1ms: waits.filter((w) => w.cpuWaitMs >= 1).length,
          serverCpuP99: quantile(
            waits.map((w) => w.serverCpuMs),
            0.99,
          ),
          clientGc: once.clientGc.filter(Boolean).length,
          v8WorkersRan: waits.filter((w) => w.serverV8WorkersCpuMs >= V8_WORKERS_RAN_MS).length,
          v8WorkersWaited1ms: waits.filter((w) => w.serverV8WorkersWaitMs >= 1).length,
          byV8Workers: {
            ran: spread(samples.filter((_, i) => (waits[i]?.serverV8WorkersCpuMs ?? 0) >= V8_WORKERS_RAN_MS)),
            idle: spread(samples.filter((_, i) => (waits[i]?.serverV8WorkersCpuMs ?? 0) < V8_WORKERS_RAN_MS)),
          },
          machine: machineSums(samples, waits),
          topProcesses: once.topProcesses,
          serverGc: gcMs.filter((ms) => ms >= GC_OVERLAP_MS).length,
          serverGcPauseMs: serverGcs.length ? gcMs.reduce((a, b) => a + b, 0) : undefined,
          byServerGc: {
            ran: spread(samples.filter((_, i) => (gcMs[i] ?? 0) >= GC_OVERLAP_MS)),
            idle: spread(samples.filter((_, i) => (gcMs[i] ?? 0) < GC_OVERLAP_MS)),
          },
          slowest: samples
            .map((ms, i) => ({
              ms,
              path: paths[i] as string,
              ...(waits[i] as Waits),
              clientGc: once.clientGc[i] ?? false,
              serverGcMs: gcMs[i] ?? 0,
              serverGcKind: gcKinds[i] ?? "",
            }))
            .sort((x, y) => y.ms - x.ms)
            .slice(0, 3),
        }
      : undefined;
  // Each sample's server CPU: the machine floor burns their median (search-floor.ts).
  const serverCpuMs = measured ? waits.map((w) => w.serverCpuMs) : [];
  return { samples, totals: once.totals, non2xx, waits: measured, serverCpuMs };
}

const spread = (ms: number[]): SampleSpread => ({
  samples: ms.length,
  p50: quantile(ms, 0.5),
  p99: quantile(ms, 0.99),
});

/** The CPU time of the whole machine over every sample of a kind, and who had it (ms). */
function machineSums(samples: number[], waits: Waits[]): MachineSums | undefined {
  if (waits.some((w) => w.machineBusyMs === undefined)) return undefined;
  const sum = (f: (w: Waits) => number) => waits.reduce((a, w) => a + f(w), 0);
  const busy = sum((w) => w.machineBusyMs ?? 0);
  const server = sum((w) => w.serverCpuMs + w.serverOtherThreadsCpuMs);
  const client = sum((w) => w.clientCpuMs);
  const cpuMs = sum((w) => (w.machineBusyMs ?? 0) + (w.machineStealMs ?? 0) + (w.machineIdleMs ?? 0));
  return {
    cpuMs,
    wallMs: cpuMs / cpus().length,
    samplesMs: samples.reduce((a, b) => a + b, 0),
    busyMs: busy,
    serverMs: server,
    clientMs: client,
    othersMs: busy - server - client,
    stealMs: sum((w) => w.machineStealMs ?? 0),
    pressureMs: waits.every((w) => w.cpuPressureMs !== undefined)
      ? sum((w) => w.cpuPressureMs ?? 0)
      : undefined,
  };
}

async function measureSize(
  ctx: BenchContext,
  client: SearchClient,
  size: number,
  kinds: QueryKind[],
): Promise<SizeResult> {
  ctx.log(`search: database of ${size.toLocaleString("en-US")} alerts`);
  const db = await benchDatabase(size);
  ctx.log(
    `  ${db.reused ? "reused" : "generated"} (generation ${db.generationSeconds.toFixed(1)} s, ${(db.bytes / 1e6).toFixed(0)} MB)`,
  );
  const { server, serverGcs } = await startWithGcLog(db, size);
  try {
    const url = urlOf(server);
    // Every kind's warm-up queries, once each and the kinds in turn, before any kind is measured.
    await client.once({ url, paths: warmupInTurn(kinds) });
    const measured: MeasuredKind[] = [];
    for (const kind of kinds) measured.push(await measureKind(ctx, client, url, kind, server, serverGcs));
    const serverRssMB = statusMB(server.process.pid, "VmRSS");
    const serverRssFileMB = statusMB(server.process.pid, "RssFile");
    const loadAverage = loadavg()[0];
    const { floor, totals } =
      size >= TARGET_SIZE ? await floorAndTotals(ctx, client, url, size, db.path, measured) : {};
    const { path: _path, ...dbInfo } = db;
    const serverStartMs = typeof server.ready.startMs === "number" ? server.ready.startMs : undefined;
    return {
      db: dbInfo,
      kinds: measured.map((m) => m.result),
      totals,
      serverRssMB,
      serverRssFileMB,
      serverStartMs,
      loadAverage,
      floor,
    };
  } finally {
    await server.stop(60_000);
  }
}

/** reference-gc.ts: the reference server as reference.ts starts it, printing its GC pauses, collected here. */
async function startWithGcLog(db: Awaited<ReturnType<typeof benchDatabase>>, size: number) {
  const server = await startChild(join(REPO, "bench/servers/reference-gc.ts"), {
    dbPath: db.path,
    size,
    clockStartSeconds: db.referenceTime,
    rateLimit: RAISED_LIMIT,
  });
  const serverGcs: ServerGc[] = [];
  let pending = "";
  server.process.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines)
      if (line.startsWith("GC ")) serverGcs.push(JSON.parse(line.slice(3)) as ServerGc);
  });
  return { server, serverGcs };
}

/** One kind of query measured, and what the floor and the totals check take from it. */
interface MeasuredKind {
  result: KindResult;
  firstSeenPaths: string[];
  serverCpuMs: number[];
  /** The totals the server answered to the first queries seen, for the brute-force count. */
  served: { path: string; total: number }[];
}

/** One kind: its repeated queries (warmed up, then ctx.runs runs), then its first-seen queries, each sent once. */
async function measureKind(
  ctx: BenchContext,
  client: SearchClient,
  url: string,
  kind: QueryKind,
  server: Child,
  serverGcs: ServerGc[],
): Promise<MeasuredKind> {
  const repeatedPaths = kind.paths.slice(0, REPEATED_PER_KIND);
  // Warm-up: reads the pages from disk, prepares the statement shapes, fills the count cache.
  await client.repeat({ url, paths: repeatedPaths, durationMs: ctx.warmupSeconds * 1000 });
  const runs = [];
  for (let i = 0; i < ctx.runs; i++)
    runs.push(await client.repeat({ url, paths: repeatedPaths, durationMs: (ctx.seconds * 1000) / 2 }));
  const firstSeenPaths = kind.paths.slice(REPEATED_PER_KIND);
  const once = await firstSeen(client, url, firstSeenPaths, server.process.pid, serverGcs);
  const served = kind.paths
    .slice(REPEATED_PER_KIND, REPEATED_PER_KIND + CHECKED_PER_KIND)
    .map((path, i) => ({ path, total: once.totals[i] as number }));
  const result: KindResult = {
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
    firstSeenWaits: once.waits,
    non2xx: runs.reduce((n, r) => n + r.non2xx, once.non2xx),
    meanTotal: once.totals.reduce((a, b) => a + b, 0) / once.totals.length,
  };
  logKind(ctx, result);
  return { result, firstSeenPaths, serverCpuMs: once.serverCpuMs, served };
}

function logKind(ctx: BenchContext, r: KindResult): void {
  ctx.log(
    `  ${r.id}: first seen p50 ${r.firstSeen.p50.toFixed(2)} / p99 ${r.firstSeen.p99.toFixed(2)} ms; ` +
      `repeated p50 ${r.repeated.p50.toFixed(2)} / p99 ${r.repeated.p99.toFixed(2)} ms (mean total ${Math.round(r.meanTotal)})` +
      (r.firstSeenWaits
        ? `; ${waitsText(r.firstSeenWaits)}; server GC samples / ms, V8 workers ran / waited, others / steal / pressure ${elseText(r.firstSeenWaits)}; ` +
          `top others ${r.firstSeenWaits.topProcesses.map((p) => `${p.command} ${p.cpuMs} ms`).join(", ")}; ` +
          `slowest ${slowestText(r.firstSeenWaits)}`
        : ""),
  );
}

/**
 * Beside the verdict, in the same run: what this machine alone makes of the server's work, then
 * the totals against a brute-force count. The floor goes first: the count's garbage keeps the
 * bench's GC threads busy after it.
 */
async function floorAndTotals(
  ctx: BenchContext,
  client: SearchClient,
  url: string,
  size: number,
  dbPath: string,
  measured: MeasuredKind[],
): Promise<{ floor: SizeResult["floor"]; totals: TotalsCheck }> {
  const firstSeenPaths = measured.map((m) => m.firstSeenPaths);
  const floor = await measureFloor(client, {
    url,
    bodyPath: firstSeenPaths[0]?.[0] as string,
    paths: firstSeenPaths,
    serverCpuMs: measured.flatMap((m) => m.serverCpuMs),
    targetMs: TARGET_P99_MS[size] as number,
    warmupMs: ctx.warmupSeconds * 1000,
    tmp: ctx.tmp,
  });
  if (floor) ctx.log(`  machine floor: ${floorText(floor)}`);
  const totals = checkTotals(
    dbPath,
    measured.flatMap((m) => m.served),
  );
  ctx.log(
    `  totals: ${totals.checked - totals.wrong.length}/${totals.checked} equal a brute-force count (${totals.seconds.toFixed(1)} s)`,
  );
  return { floor, totals };
}

export async function search(ctx: BenchContext): Promise<Section> {
  const sizes = ctx.args.quick
    ? [10_000]
    : [10_000, TARGET_SIZE, ...(ctx.args.million === "on" ? [MILLION] : [])];
  const kinds = queryKinds();
  const results: SizeResult[] = [];
  const client = await SearchClient.start();
  try {
    for (const size of sizes) results.push(await measureSize(ctx, client, size, kinds));
  } finally {
    await client.stop();
  }
  return report(ctx, kinds, results, client.nice);
}
