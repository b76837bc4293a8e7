/**
 * `dealkit proxy` in front of the reference server: what passive judging adds to each exchange.
 * The proxy runs as a user runs it (the CLI, its own process), judging every exchange; the same
 * requests go to the server directly and through the proxy in turn, in the same run, so the
 * figures compare like with like on a noisy machine.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BACKLOG } from "../../conformance/passive/judging.ts";
import type { BenchContext } from "../context.ts";
import { OneConnection, sequentialLatencies } from "../latency.ts";
import { type LoadSummary, load, summarize } from "../load.ts";
import { REPO, startChild, urlOf } from "../procs.ts";
import { proxyListening, stopProxy } from "../proxy-process.ts";
import { formatNumber, formatRatio, median, quantile, ratio } from "../stats.ts";
import type { Section } from "../types.ts";
import { ENDPOINTS } from "./throughput-plan.ts";

const TARGET_ADDED_P50_MS = 2;
/** Steady loads: this many keep-alive clients, each one request every `paceMs`; the first is the target's. */
const PACED_CLIENTS = 20;
const PACES_MS = [100, 20];
const reqPerSecond = (paceMs: number) => (PACED_CLIENTS * 1000) / paceMs;
/** The limit raised out of the way, per minute so that the proxy judges against the same (--rate). */
const LIMIT = { limit: 1_000_000_000, windowSeconds: 60 };
/** The manifest states the raised limit; every other endpoint of the throughput scenario is measured. */
const MEASURED = ENDPOINTS.filter((e) => e.id !== "meta");

interface Latency {
  p50: number;
  p99: number;
}

interface EndpointResult {
  id: string;
  direct: Latency;
  proxied: Latency;
}

interface ProxyReport {
  passive?: { exchanges: number; judged: number; findings: number; notJudged: Record<string, number> };
  checks: { status: string }[];
}

/** Starts `dealkit proxy` (the CLI) on a free port; resolves with its URL once it listens. */
function startProxyCli(upstream: string, reportPath: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      join(REPO, "bin/dealkit.js"),
      "proxy",
      "--upstream",
      upstream,
      "--port",
      "0",
      "--rate",
      `${LIMIT.limit}/MIN`,
      "--report",
      `json=${reportPath}`,
    ],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] },
  );
  return proxyListening(child);
}

async function sequential(ctx: BenchContext, direct: string, proxied: string): Promise<EndpointResult[]> {
  const out: EndpointResult[] = [];
  for (const e of MEASURED) {
    await sequentialLatencies(direct, [e.path], ctx.warmupSeconds * 1000);
    await sequentialLatencies(proxied, [e.path], ctx.warmupSeconds * 1000);
    const runs: { direct: number[]; proxied: number[] }[] = [];
    for (let i = 0; i < ctx.runs; i++) {
      const d = await sequentialLatencies(direct, [e.path], (ctx.seconds * 1000) / 2);
      const p = await sequentialLatencies(proxied, [e.path], (ctx.seconds * 1000) / 2);
      runs.push({ direct: d.samples, proxied: p.samples });
    }
    const pick = (which: "direct" | "proxied") => ({
      p50: median(runs.map((r) => quantile(r[which], 0.5))),
      p99: median(runs.map((r) => quantile(r[which], 0.99))),
    });
    const r = { id: e.id, direct: pick("direct"), proxied: pick("proxied") };
    ctx.log(
      `  ${e.id}: p50 ${r.direct.p50.toFixed(2)} → ${r.proxied.p50.toFixed(2)} ms, p99 ${r.direct.p99.toFixed(2)} → ${r.proxied.p99.toFixed(2)} ms`,
    );
    out.push(r);
  }
  return out;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * A steady load, timed in the client with sub-ms resolution: PACED_CLIENTS keep-alive clients,
 * staggered, each sending the paths in turn at one request every `paceMs` (a late answer delays
 * that client's next request, never piles requests up).
 */
async function paced(url: string, paths: string[], paceMs: number, durationMs: number): Promise<number[]> {
  const samples: number[] = [];
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: PACED_CLIENTS }, async (_, c) => {
      const conn = new OneConnection(url);
      await sleep((c * paceMs) / PACED_CLIENTS);
      try {
        let next = performance.now();
        for (let i = c; performance.now() < deadline; i++) {
          samples.push((await conn.get(paths[i % paths.length] as string)).ms);
          next += paceMs;
          await sleep(next - performance.now());
        }
      } finally {
        conn.close();
      }
    }),
  );
  return samples;
}

async function pacedLoad(ctx: BenchContext, direct: string, proxied: string, paceMs: number) {
  const paths = MEASURED.map((e) => e.path);
  await paced(proxied, paths, paceMs, ctx.warmupSeconds * 1000);
  const runs: { direct: number[]; proxied: number[] }[] = [];
  for (let i = 0; i < ctx.runs; i++)
    runs.push({
      direct: await paced(direct, paths, paceMs, ctx.seconds * 1000),
      proxied: await paced(proxied, paths, paceMs, ctx.seconds * 1000),
    });
  const pick = (which: "direct" | "proxied"): Latency & { samples: number } => ({
    p50: median(runs.map((r) => quantile(r[which], 0.5))),
    p99: median(runs.map((r) => quantile(r[which], 0.99))),
    samples: runs.reduce((n, r) => n + r[which].length, 0),
  });
  return { rate: reqPerSecond(paceMs), direct: pick("direct"), proxied: pick("proxied") };
}

type Paced = Awaited<ReturnType<typeof pacedLoad>>;

async function underLoad(
  ctx: BenchContext,
  direct: string,
  proxied: string,
): Promise<{ direct: LoadSummary; proxied: LoadSummary }> {
  const paths = MEASURED.filter((e) => e.id !== "rank-300").map((e) => e.path);
  const shape = { paths, connections: ctx.connections, durationSeconds: ctx.seconds };
  await load({ ...shape, url: proxied, durationSeconds: ctx.warmupSeconds });
  const d = [];
  const p = [];
  for (let i = 0; i < ctx.runs; i++) {
    d.push(await load({ ...shape, url: direct }));
    p.push(await load({ ...shape, url: proxied }));
  }
  return { direct: summarize(d), proxied: summarize(p) };
}

export async function proxy(ctx: BenchContext): Promise<Section> {
  // Generated at start and served on the real clock: the proxy judges rank windows against its
  // own time, and a server living at a database's reference time would fail them.
  const server = await startChild(join(REPO, "bench/servers/reference.ts"), {
    dbPath: ":memory:",
    size: 20_000,
    rateLimit: LIMIT,
  });
  const reportPath = join(ctx.tmp, "proxy-report.json");
  const direct = urlOf(server);
  const { url: proxied, child } = await startProxyCli(direct, reportPath);
  let seq: EndpointResult[];
  const steady: Paced[] = [];
  let loaded: { direct: LoadSummary; proxied: LoadSummary };
  try {
    ctx.log("proxy: one client, one request at a time, direct and through dealkit proxy in turn");
    seq = await sequential(ctx, direct, proxied);
    for (const paceMs of PACES_MS) {
      ctx.log(
        `proxy: steady ${reqPerSecond(paceMs)} req/s from ${PACED_CLIENTS} clients, direct and through dealkit proxy in turn`,
      );
      const r = await pacedLoad(ctx, direct, proxied, paceMs);
      ctx.log(
        `  p50 ${r.direct.p50.toFixed(2)} → ${r.proxied.p50.toFixed(2)} ms, p99 ${r.direct.p99.toFixed(2)} → ${r.proxied.p99.toFixed(2)} ms`,
      );
      steady.push(r);
    }
    ctx.log(`proxy: flat out, ${ctx.connections} connections, direct and through dealkit proxy in turn`);
    loaded = await underLoad(ctx, direct, proxied);
  } finally {
    await stopProxy(child);
    await server.stop();
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as ProxyReport;
  return section(ctx, seq, steady, loaded, report);
}

function section(
  ctx: BenchContext,
  seq: EndpointResult[],
  steady: Paced[],
  loaded: { direct: LoadSummary; proxied: LoadSummary },
  report: ProxyReport,
): Section {
  const added = (r: EndpointResult, q: "p50" | "p99") => r.proxied[q] - r.direct[q];
  const worst = seq.reduce((a, b) => (added(b, "p50") > added(a, "p50") ? b : a));
  const target = steady[0] as Paced;
  const steadyAdded = target.proxied.p50 - target.direct.p50;
  const failed = report.checks.filter((c) => c.status === "fail").length;
  const passive = report.passive;
  return {
    id: "proxy",
    title: "dealkit proxy: passive judging's cost per exchange",
    method:
      "The reference server (20k alerts generated at start, limit raised to 10⁹ a minute) and `dealkit proxy --upstream` in front of it, each in its own " +
      "process as a user starts them, the proxy judging every exchange with every check in its worker thread (and writing its JSON report on SIGINT). " +
      "The same requests go directly and through the proxy in turn, in the same run. " +
      `**One client**: one keep-alive connection, one request at a time, timed in the client (sub-ms), ${ctx.runs} × ${(ctx.seconds / 2).toFixed(1)} s ` +
      "per endpoint after a warm-up, median of the runs' p50/p99. " +
      `**Steady load**: ${PACED_CLIENTS} keep-alive clients, each one request every ${PACES_MS.join(" or ")} ms (${steady.map((r) => formatNumber(r.rate)).join(" or ")} req/s in all; the target is judged at ${formatNumber(target.rate)}, ` +
      `${formatNumber(target.rate * 60)} requests a minute where the API allows one client 60), rank-20/rank-300/feed/search in turn, timed in the client, ${ctx.runs} × ${ctx.seconds} s. ` +
      `**Flat out**: autocannon, ${ctx.connections} connections, rank-20/feed/search in turn, ${ctx.runs} × ${ctx.seconds} s: the most the proxy passes.`,
    tables: [
      {
        caption: "One client: latency directly and through the proxy (ms)",
        columns: ["endpoint", "direct p50 / p99", "proxied p50 / p99", "added p50", "added p99", "p50 ratio"],
        rows: seq.map((r) => [
          r.id,
          `${r.direct.p50.toFixed(2)} / ${r.direct.p99.toFixed(2)}`,
          `${r.proxied.p50.toFixed(2)} / ${r.proxied.p99.toFixed(2)}`,
          added(r, "p50").toFixed(2),
          added(r, "p99").toFixed(2),
          formatRatio(ratio(r.proxied.p50, r.direct.p50)),
        ]),
      },
      {
        caption: `Steady load from ${PACED_CLIENTS} clients: latency (ms)`,
        columns: [
          "req/s",
          "direct p50 / p99",
          "proxied p50 / p99",
          "added p50",
          "p50 ratio",
          "answers timed",
        ],
        rows: steady.map((r) => [
          formatNumber(r.rate),
          `${r.direct.p50.toFixed(2)} / ${r.direct.p99.toFixed(2)}`,
          `${r.proxied.p50.toFixed(2)} / ${r.proxied.p99.toFixed(2)}`,
          (r.proxied.p50 - r.direct.p50).toFixed(2),
          formatRatio(ratio(r.proxied.p50, r.direct.p50)),
          formatNumber(r.direct.samples + r.proxied.samples),
        ]),
      },
      {
        caption: `Flat out (${ctx.connections} connections): autocannon's figures (whole ms)`,
        columns: ["", "req/s", "p50 / p99 ms", "non-2xx", "errors"],
        rows: (["direct", "proxied"] as const).map((k) => [
          k === "direct" ? "reference server" : "through dealkit proxy",
          formatNumber(loaded[k].rps),
          `${loaded[k].p50} / ${loaded[k].p99}`,
          loaded[k].non2xx,
          loaded[k].errors,
        ]),
      },
    ],
    targets: [
      {
        name: `dealkit proxy adds ≤ ${TARGET_ADDED_P50_MS} ms p50 per exchange (one client, every endpoint)`,
        met: added(worst, "p50") <= TARGET_ADDED_P50_MS,
        value: added(worst, "p50"),
        unit: " ms",
        measured: `worst ${added(worst, "p50").toFixed(2)} ms (${worst.id}: ${worst.direct.p50.toFixed(2)} → ${worst.proxied.p50.toFixed(2)} ms, ${formatRatio(ratio(worst.proxied.p50, worst.direct.p50))}); ${seq.map((r) => `${r.id} +${added(r, "p50").toFixed(2)}`).join(", ")} ms`,
      },
      {
        name: `dealkit proxy adds ≤ ${TARGET_ADDED_P50_MS} ms p50 at a steady ${formatNumber(target.rate)} req/s`,
        met: steadyAdded <= TARGET_ADDED_P50_MS,
        value: steadyAdded,
        unit: " ms",
        measured:
          `+${steadyAdded.toFixed(2)} ms: p50 ${target.direct.p50.toFixed(2)} → ${target.proxied.p50.toFixed(2)} ms (${formatRatio(ratio(target.proxied.p50, target.direct.p50))}), p99 ${target.direct.p99.toFixed(2)} → ${target.proxied.p99.toFixed(2)} ms; ` +
          steady
            .slice(1)
            .map((r) => `at ${formatNumber(r.rate)} req/s +${(r.proxied.p50 - r.direct.p50).toFixed(2)} ms`)
            .join("; "),
      },
      {
        name: "0 findings in front of the reference server under load",
        met: passive !== undefined && failed === 0 && passive.findings === 0,
        value: passive?.findings ?? Number.NaN,
        unit: "",
        measured: passive
          ? `${formatNumber(passive.findings)} findings over ${formatNumber(passive.exchanges)} exchanges (${formatNumber(passive.judged)} judged: ${((100 * passive.judged) / passive.exchanges).toFixed(1)}%), ${failed} checks failed`
          : "no report",
      },
    ],
    notes: [
      `Flat out the proxy passes ${formatRatio(ratio(loaded.proxied.rps, loaded.direct.rps))} of the server's req/s (${formatNumber(loaded.proxied.rps)} vs ${formatNumber(loaded.direct.rps)}; p50 ${loaded.direct.p50} → ${loaded.proxied.p50} ms): every exchange crosses two HTTP hops in one Node process and is judged by every check in its worker, on 2 cores shared with the server and the load generator. Latency there is queueing; a deployment allows one client 60 requests a minute.`,
      "Judging runs in a worker thread once an answer is complete: forwarding never waits for it, so the one-client figures are the forwarding (two HTTP hops) and the body's bytes moved (not copied) to the worker. " +
        "Judging costs more CPU per exchange than forwarding (about 0.9 against 0.6 ms), so on 2 shared cores it falls behind at 1,000 req/s and flat out. " +
        `Exchanges waiting for the judge are bounded (${formatNumber(BACKLOG.exchanges)} or ${BACKLOG.bytes / 1024 / 1024} MB, conformance/passive/judging.ts); past that they are counted as not judged rather than queued` +
        (passive && Object.keys(passive.notJudged).length > 0
          ? `: this run, ${Object.entries(passive.notJudged)
              .map(([why, n]) => `${formatNumber(n)} ${why}`)
              .join(", ")} (most of them flat out).`
          : "."),
      "With --errors the proxy holds each answer until it is judged (up to the 8 MB cap): add the judging time (about 0.2 ms for a 7 KB answer, 1.5 ms for rank-300 here) to every request then.",
    ],
    data: { sequential: seq, steady, load: loaded, report: { passive, failed } },
  };
}
