import { writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import type { CapturedBody } from "../baseline-server.ts";
import type { BenchContext } from "../context.ts";
import { cpuSeconds, threadCpuSeconds } from "../cpu-time.ts";
import { benchDatabase } from "../data.ts";
import { type LoadRun, type LoadSummary, load, summarize } from "../load.ts";
import { type Child, REPO, startChild, urlOf } from "../procs.ts";
import { addedNsPerRequest, formatNumber, formatRatio, median, ratio } from "../stats.ts";
import type { Section, TargetResult } from "../types.ts";
import { pairedRatios, pairedSummary, pairOrder } from "./throughput-pairs.ts";

/** The measured requests: fixed, so every run and every target answers the same thing. */
export const ENDPOINTS = [
  { id: "rank-20", path: "/api/v1/rank?act=ershisixiaoshi&limit=20" },
  { id: "rank-300", path: "/api/v1/rank?act=ershisixiaoshi&limit=300" },
  { id: "feed", path: "/api/v1/feed?cate=all&limit=20" },
  { id: "search", path: `/api/v1/search?q=${encodeURIComponent("京东")}&limit=20` },
  { id: "meta", path: "/api/v1/meta" },
] as const;
type EndpointId = (typeof ENDPOINTS)[number]["id"];

/** Where the ratio targets of issue 7 apply. */
// Issue 25: every endpoint of the throughput scenario within 0.85 of bare node:http answering the
// same bytes (it was 0.5 on rank-20 and meta).
const CEILING_RATIO = 0.85;
const CEILING_TARGET: EndpointId[] = ["rank-20", "feed", "search", "meta"];

interface Target {
  name: string;
  label: string;
  start: () => Promise<Child>;
  /** Endpoints measured on this target (the secondary targets only where they answer a question). */
  only?: EndpointId[];
}

/** The rate limit stays on, raised; a 1 s window keeps the one client's timestamp list short. */
export const RAISED_LIMIT = { limit: 1_000_000_000, windowSeconds: 1 };

const DEFAULT_SIZE = 20_000;

/**
 * The server and bare node:http run in adjacent pairs, A B B A (throughput-pairs.ts), more often
 * and shorter than the other targets: rounds of the pair, and seconds per run. The other targets
 * run ctx.runs times, spread over the rounds.
 */
const pairRounds = (ctx: BenchContext) => ctx.runs * 2 + 2;
const pairSeconds = (ctx: BenchContext) => Math.min(ctx.seconds, 2);
/** Each process's first load, on all its endpoints in turn, before the per-endpoint warm-ups. */
const processWarmupSeconds = (ctx: BenchContext) => ctx.warmupSeconds * 3;

export async function throughput(ctx: BenchContext): Promise<Section> {
  const db = await benchDatabase(DEFAULT_SIZE);
  const serverOptions = { dbPath: db.path, size: db.size, clockStartSeconds: db.referenceTime };
  const reference = () =>
    startChild(join(REPO, "bench/servers/reference.ts"), { ...serverOptions, rateLimit: RAISED_LIMIT });
  const bodiesFile = join(ctx.tmp, "bodies.json");
  const bodyBytes: Record<string, Record<string, number>> = {};

  const targets: Target[] = [
    { name: "server", label: "reference server (limit raised)", start: reference },
    {
      name: "baseline",
      label: "bare node:http (same bytes: body and header lines)",
      start: () => startChild(join(REPO, "bench/baseline-server.ts"), { bodiesFile, headers: "captured" }),
    },
    {
      // The ceiling before issue 25's work: the body with Content-Type and Content-Length only.
      name: "baseline-body",
      label: "bare node:http (same body, 2 header lines)",
      only: CEILING_TARGET,
      start: () => startChild(join(REPO, "bench/baseline-server.ts"), { bodiesFile, headers: "body-only" }),
    },
    {
      name: "prism",
      label: "Prism static (no rule layer)",
      start: () => startChild(join(REPO, "bench/servers/mock.ts"), { rules: false }),
    },
    {
      name: "server-no-limit",
      label: "reference server, limiter off",
      only: ["rank-20", "meta"],
      start: () =>
        startChild(join(REPO, "bench/servers/reference.ts"), { ...serverOptions, rateLimit: false }),
    },
    {
      name: "prism-rules",
      label: "Prism + rule layer",
      only: ["rank-20", "meta"],
      start: () => startChild(join(REPO, "bench/servers/mock.ts"), { rules: true }),
    },
  ];

  // Everything runs at once (idle servers cost nothing) so that runs can be interleaved:
  // target A, B, C, then A, B, C again, and a burst of noise on the shared machine hits all alike.
  ctx.log("throughput: starting the reference server, capturing its bodies");
  const children = new Map<string, Child>();
  const urlOfTarget = (name: string) => {
    const child = children.get(name);
    if (!child) throw new Error(`${name} is not running`);
    return urlOf(child);
  };
  const runs: Record<string, Record<string, LoadRun[]>> = {};
  // CPU µs per answered request of each target's process, per run (NaN without /proc).
  const cpuUs: Record<string, Record<string, number[]>> = {};
  // The same split by thread, µs per request per run: [main thread, the other threads].
  const threadUs: Record<string, Record<string, [number, number][]>> = {};
  const record = (
    endpoint: string,
    target: string,
    run: LoadRun,
    cpuUsPerRequest: number,
    threadUsPerRequest: [number, number],
  ) => {
    const byTarget = runs[endpoint] ?? {};
    runs[endpoint] = byTarget;
    byTarget[target] = [...(byTarget[target] ?? []), run];
    const cpu = cpuUs[endpoint] ?? {};
    cpuUs[endpoint] = cpu;
    cpu[target] = [...(cpu[target] ?? []), cpuUsPerRequest];
    const threads = threadUs[endpoint] ?? {};
    threadUs[endpoint] = threads;
    threads[target] = [...(threads[target] ?? []), threadUsPerRequest];
  };
  try {
    children.set("server", await reference());
    const captured: Record<string, CapturedBody> = {};
    for (const e of ENDPOINTS) {
      const { status, headers, body } = await rawGet(urlOfTarget("server") + e.path);
      if (status !== 200) throw new Error(`${e.path} answered ${status}: ${body.toString().slice(0, 300)}`);
      captured[e.path] = capture(headers, body);
      bodyBytes[e.id] = { server: body.length };
    }
    writeFileSync(bodiesFile, JSON.stringify(captured));
    ctx.log(
      "throughput: starting bare node:http, Prism (plain and with the rule layer), the server without limiter",
    );
    // Started together: each start is mostly tsx compiling and Prism loading the spec, idle CPU aside.
    const started = await Promise.all(targets.slice(1).map(async (t) => [t.name, await t.start()] as const));
    for (const [name, child] of started) children.set(name, child);
    for (const e of ENDPOINTS) {
      const res = await fetch(urlOfTarget("prism") + e.path);
      bodyBytes[e.id] = { ...bodyBytes[e.id], prism: (await res.arrayBuffer()).byteLength };
      if (res.status !== 200) ctx.log(`  note: Prism answered ${res.status} to ${e.path}`);
    }

    // Every process warmed up on all its endpoints before anything is measured: under its first
    // seconds of load the reference server JIT-compiles its request path and collects its start-up
    // garbage (a mark-compact of ≈ 40 ms), which fell into rank-20's runs (measured first) and not
    // into bare node:http's, whose code is a few lines.
    for (const t of targets) {
      await load({
        url: urlOfTarget(t.name),
        paths: ENDPOINTS.filter((e) => !t.only || t.only.includes(e.id)).map((e) => e.path),
        connections: ctx.connections,
        durationSeconds: processWarmupSeconds(ctx),
      });
    }
    const measure = async (endpoint: (typeof ENDPOINTS)[number], target: string, seconds: number) => {
      const pid = children.get(target)?.process.pid;
      const cpuBefore = cpuSeconds(pid);
      const threadsBefore = threadCpuSeconds(pid);
      const run = await load({
        url: urlOfTarget(target) + endpoint.path,
        connections: ctx.connections,
        durationSeconds: seconds,
      });
      const threadsAfter = threadCpuSeconds(pid);
      const perRequestUs = (s: number) => (s * 1e6) / (run.rps * seconds);
      record(endpoint.id, target, run, perRequestUs(cpuSeconds(pid) - cpuBefore), [
        perRequestUs(threadsAfter.main - threadsBefore.main),
        perRequestUs(threadsAfter.others - threadsBefore.others),
      ]);
    };
    const rounds = pairRounds(ctx);
    // The other targets' ctx.runs runs go after the pair in every step-th round.
    const step = Math.max(1, Math.floor(rounds / ctx.runs));
    for (const e of ENDPOINTS) {
      const here = targets.filter((t) => !t.only || t.only.includes(e.id));
      for (const t of here) {
        await load({
          url: urlOfTarget(t.name) + e.path,
          connections: ctx.connections,
          durationSeconds: ctx.warmupSeconds,
        });
      }
      const others = here.filter((t) => t.name !== "server" && t.name !== "baseline");
      for (let round = 0; round < rounds; round++) {
        for (const name of pairOrder(round, "server", "baseline")) await measure(e, name, pairSeconds(ctx));
        if (round % step === 0 && round / step < ctx.runs) {
          for (const t of others) await measure(e, t.name, ctx.seconds);
        }
      }
      const s = runs[e.id] ?? {};
      ctx.log(
        `  ${e.id}: ${here.map((t) => `${t.name} ${formatNumber(summarize(s[t.name] ?? []).rps)}`).join(", ")} req/s`,
      );
    }
    return report(ctx, runs, cpuUs, threadUs, bodyBytes, targets);
  } finally {
    await Promise.all([...children.values()].map((c) => c.stop()));
  }
}

/**
 * One GET as autocannon sends it (no Accept-Encoding, so the body is not compressed), with the
 * header lines exactly as written (names as sent, in order).
 */
function rawGet(url: string): Promise<{ status: number; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    }).on("error", reject);
  });
}

/** Lines Node writes itself on every answer (Date changes each second): not part of the capture. */
const WRITTEN_BY_NODE = new Set(["date", "connection", "keep-alive"]);

/** What the bare server replays: the body, the other header lines in order, the keep-alive timeout. */
export function capture(rawHeaders: string[], body: Buffer): CapturedBody {
  const headers: [string, string][] = [];
  let contentType = "application/json";
  let keepAliveMs = 5000;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const value = rawHeaders[i + 1] as string;
    const lower = name.toLowerCase();
    if (lower === "content-type") contentType = value;
    if (lower === "keep-alive") keepAliveMs = Number(/timeout=(\d+)/.exec(value)?.[1] ?? 5) * 1000;
    if (!WRITTEN_BY_NODE.has(lower)) headers.push([name, value]);
  }
  return { contentType, body: body.toString("base64"), headers, keepAliveMs };
}

/** "743 (664–948)": the median and the spread of the runs, so the noise is visible next to the figure. */
function withSpread(s: LoadSummary | undefined): string {
  if (!s) return "n/a";
  const rps = s.runs.map((r) => r.rps);
  return rps.length > 1
    ? `${formatNumber(s.rps)} (${formatNumber(Math.min(...rps))}–${formatNumber(Math.max(...rps))})`
    : formatNumber(s.rps);
}

/**
 * The limiter's end-to-end cost is a few µs in a request of several hundred: smaller than the
 * run-to-run spread here. Shown only when the difference is larger than both spreads.
 */
function belowNoise(ns: number, on: LoadSummary | undefined, off: LoadSummary | undefined): string {
  if (!on || !off) return "n/a";
  const spread = (s: LoadSummary) =>
    Math.max(...s.runs.map((r) => r.rps)) - Math.min(...s.runs.map((r) => r.rps));
  const differs = Math.abs(on.rps - off.rps) > Math.max(spread(on), spread(off));
  return differs ? formatNumber(ns) : `below noise (${formatNumber(ns)})`;
}

function report(
  ctx: BenchContext,
  runs: Record<string, Record<string, LoadRun[]>>,
  cpuUs: Record<string, Record<string, number[]>>,
  threadUs: Record<string, Record<string, [number, number][]>>,
  bodyBytes: Record<string, Record<string, number>>,
  targets: Target[],
): Section {
  const med = (e: string, t: string) => {
    const r = runs[e]?.[t];
    return r ? summarize(r) : undefined;
  };
  // Each round's server req/s over the baseline's run next to it; the target is their median.
  const paired = (e: string) =>
    pairedSummary(
      pairedRatios(
        (runs[e]?.server ?? []).map((r) => r.rps),
        (runs[e]?.baseline ?? []).map((r) => r.rps),
      ),
    );
  const pairedText = (e: string) => {
    const p = paired(e);
    return Number.isFinite(p.median)
      ? `${formatRatio(p.median)} (${p.min.toFixed(2)}–${p.max.toFixed(2)})`
      : "n/a";
  };
  const rows = ENDPOINTS.map((e) => {
    const server = med(e.id, "server");
    const baseline = med(e.id, "baseline");
    const prism = med(e.id, "prism");
    const bodyOnly = med(e.id, "baseline-body");
    const flags = [server, baseline, prism, bodyOnly].some((s) => s && s.non2xx + s.errors > 0) ? " ⚠" : "";
    return [
      e.id + flags,
      formatNumber(bodyBytes[e.id]?.server ?? Number.NaN),
      withSpread(server),
      `${server?.p50 ?? "n/a"} / ${server?.p99 ?? "n/a"}`,
      withSpread(baseline),
      `${baseline?.p50 ?? "n/a"} / ${baseline?.p99 ?? "n/a"}`,
      withSpread(prism),
      `${prism?.p50 ?? "n/a"} / ${prism?.p99 ?? "n/a"}`,
      pairedText(e.id),
      formatRatio(ratio(server?.rps ?? Number.NaN, baseline?.rps ?? Number.NaN)),
      bodyOnly
        ? `${formatRatio(ratio(server?.rps ?? Number.NaN, bodyOnly.rps))} (${withSpread(bodyOnly)})`
        : "n/a",
      formatRatio(ratio(server?.rps ?? Number.NaN, prism?.rps ?? Number.NaN)),
      formatRatio(ratio(baseline?.rps ?? Number.NaN, prism?.rps ?? Number.NaN)),
    ];
  });
  const extraRows = (["rank-20", "meta"] as const).map((id) => {
    const server = med(id, "server");
    const off = med(id, "server-no-limit");
    const rules = med(id, "prism-rules");
    return [
      id,
      formatNumber(off?.rps ?? Number.NaN),
      formatRatio(ratio(server?.rps ?? Number.NaN, off?.rps ?? Number.NaN)),
      belowNoise(addedNsPerRequest(server?.rps ?? Number.NaN, off?.rps ?? Number.NaN), server, off),
      formatNumber(rules?.rps ?? Number.NaN),
      `${rules?.p50 ?? "n/a"} / ${rules?.p99 ?? "n/a"}`,
      formatRatio(ratio(server?.rps ?? Number.NaN, rules?.rps ?? Number.NaN)),
    ];
  });

  // CPU per request: medians of the runs, with their spread, and the bare servers' over the server's.
  const cpuOf = (e: string, t: string) => cpuUs[e]?.[t] ?? [];
  const cpuText = (values: number[]) =>
    values.length
      ? `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`
      : "n/a";
  // "main / others": medians of each thread group's µs per request over the runs.
  const threadText = (e: string, t: string) => {
    const split = threadUs[e]?.[t] ?? [];
    const part = (i: 0 | 1) => median(split.map((s) => s[i]));
    return split.length ? `${part(0).toFixed(0)} / ${part(1).toFixed(1)}` : "n/a";
  };
  const cpuRows = ENDPOINTS.filter((e) => CEILING_TARGET.includes(e.id)).map((e) => {
    const server = median(cpuOf(e.id, "server"));
    return [
      e.id,
      cpuText(cpuOf(e.id, "server")),
      cpuText(cpuOf(e.id, "baseline")),
      cpuText(cpuOf(e.id, "baseline-body")),
      formatRatio(ratio(median(cpuOf(e.id, "baseline")), server)),
      formatRatio(ratio(median(cpuOf(e.id, "baseline-body")), server)),
      threadText(e.id, "server"),
      threadText(e.id, "baseline"),
    ];
  });

  const targetResults: TargetResult[] = [];
  for (const id of CEILING_TARGET) {
    const serverRps = med(id, "server")?.rps ?? Number.NaN;
    const baselineRps = med(id, "baseline")?.rps ?? Number.NaN;
    const r = paired(id).median;
    const bodyOnlyRps = med(id, "baseline-body")?.rps ?? Number.NaN;
    targetResults.push({
      name: `server ≥ ${CEILING_RATIO * 100}% of bare node:http, ${id}`,
      met: Number.isFinite(r) ? r >= CEILING_RATIO : null,
      value: r,
      unit: "×",
      measured:
        `${pairedText(id)}: median of ${Math.min(runs[id]?.server?.length ?? 0, runs[id]?.baseline?.length ?? 0)} ` +
        `adjacent pairs (range in brackets); medians ${formatNumber(serverRps)} vs ${formatNumber(baselineRps)} req/s, ` +
        `ratio of medians ${formatRatio(ratio(serverRps, baselineRps))}; ` +
        `${formatRatio(ratio(serverRps, bodyOnlyRps))} of node:http writing the body with 2 header lines; ` +
        `CPU per request ${median(cpuOf(id, "server")).toFixed(0)} vs ${median(cpuOf(id, "baseline")).toFixed(0)} µs`,
    });
  }
  const prismRatios = ENDPOINTS.map((e) => ({
    id: e.id,
    r: ratio(med(e.id, "server")?.rps ?? Number.NaN, med(e.id, "prism")?.rps ?? Number.NaN),
  }));
  const worst = prismRatios.reduce((a, b) => (b.r < a.r ? b : a));
  const ceilingOverPrism = ratio(
    med(worst.id, "baseline")?.rps ?? Number.NaN,
    med(worst.id, "prism")?.rps ?? Number.NaN,
  );
  targetResults.push({
    name: "server ≥ 10× Prism static throughput (every endpoint)",
    met: Number.isFinite(worst.r) ? worst.r >= 10 : null,
    value: worst.r,
    unit: "×",
    measured:
      `lowest ${formatRatio(worst.r)} (${worst.id}; bare node:http itself is ${formatRatio(ceilingOverPrism)} Prism there); ` +
      prismRatios.map((p) => `${p.id} ${formatRatio(p.r)}`).join(", "),
  });

  const prismBytes = ENDPOINTS.map(
    (e) => `${e.id} ${formatNumber(bodyBytes[e.id]?.prism ?? Number.NaN)} B`,
  ).join(", ");
  return {
    id: "throughput",
    title: "Throughput and latency: reference server vs bare node:http vs Prism",
    method:
      `autocannon, ${ctx.connections} keep-alive connections. Each process is first warmed up for ` +
      `${processWarmupSeconds(ctx)} s on all its endpoints in turn (JIT and start-up garbage out of the way), then ` +
      `${ctx.warmupSeconds} s per endpoint. ` +
      `The reference server and bare node:http (same bytes) run in ${pairRounds(ctx)} adjacent pairs of ` +
      `${pairSeconds(ctx)} s runs per endpoint, in A B B A order (server first in even rounds, node:http first in odd ` +
      "ones), so the machine's drifting load weighs on both alike; the target is the plain throughput ratio, taken " +
      "as the median over the rounds of each pair's server req/s ÷ node:http req/s (a burst of other work spoils one " +
      `pair, not the verdict). The other targets run ${ctx.runs} × ${ctx.seconds} s, between the pairs. req/s and ` +
      "p50/p99 are medians over the runs. 20,000 generated alerts (the default data). " +
      "The reference server keeps its limiter on with the limit raised to 10⁹ per 1 s window (one client address). " +
      "The bare node:http server answers the very bytes the reference server answered for each request: the body " +
      "and the same header lines (captured just before; Node adds Date, Connection and Keep-Alive to both). On the " +
      "target endpoints a second bare server writes the same body with Content-Type and Content-Length only (the " +
      "ceiling used before issue 25), shown beside. " +
      "Client and servers share the machine's cores.",
    tables: [
      {
        columns: [
          "endpoint",
          "body B",
          "server req/s",
          "server p50/p99 ms",
          "node:http req/s",
          "node:http p50/p99 ms",
          "Prism req/s",
          "Prism p50/p99 ms",
          "server / node:http, median of paired rounds (range)",
          "server / node:http, ratio of medians",
          "server / node:http body only (its req/s)",
          "server / Prism",
          "node:http / Prism (ceiling)",
        ],
        rows,
      },
      {
        caption: "The limiter's end-to-end cost, and the mock with its rule layer",
        columns: [
          "endpoint",
          "server, limiter off req/s",
          "limiter on / off",
          "limiter ns/request (end to end)",
          "Prism + rule layer req/s",
          "rule layer p50/p99 ms",
          "server / mock with rules",
        ],
        rows: extraRows,
      },
      {
        caption:
          "CPU time per answered request of each server process (user + system, /proc), during the same runs: " +
          "what the server itself costs, much less moved by the other jobs on the machine than req/s. The last two " +
          "columns split it by thread (on-CPU time, /proc/<pid>/task/*/schedstat): the main thread runs the " +
          "JavaScript and the I/O, the others are mostly V8's collector and compiler",
        columns: [
          "endpoint",
          "server µs",
          "node:http (same bytes) µs",
          "node:http (body only) µs",
          "node:http / server (same bytes)",
          "node:http / server (body only)",
          "server: main thread / other threads µs",
          "node:http (same bytes): main thread / other threads µs",
        ],
        rows: cpuRows,
      },
    ],
    targets: targetResults,
    notes: [
      `Prism answers the spec's example, not the same bytes: ${prismBytes}. The 10× target cannot be met ` +
        "where the node:http / Prism column is itself below 10×: that is the whole HTTP ceiling of this machine.",
      "⚠ marks an endpoint where some answers were not 2xx or sockets failed (see results.json).",
      "A ratio of medians moves with each side's run spread (in brackets); the paired ratio is the verdict " +
        "because each pair ran side by side. A target near its threshold is still best judged over several runs.",
    ],
    data: {
      bodyBytes,
      targets: targets.map((t) => ({ name: t.name, label: t.label })),
      runs,
      cpuUs,
      threadUs,
      pairedRatios: Object.fromEntries(
        ENDPOINTS.map((e) => [
          e.id,
          pairedRatios(
            (runs[e.id]?.server ?? []).map((r) => r.rps),
            (runs[e.id]?.baseline ?? []).map((r) => r.rps),
          ),
        ]),
      ),
    },
  };
}
