import { writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import type { CapturedBody } from "../baseline-server.ts";
import type { BenchContext } from "../context.ts";
import { cpuSeconds, threadCpuSeconds } from "../cpu-time.ts";
import { benchDatabase } from "../data.ts";
import { load, summarize } from "../load.ts";
import { type Child, REPO, startChild, urlOf } from "../procs.ts";
import { formatNumber } from "../stats.ts";
import type { Section } from "../types.ts";
import { pairOrder } from "./throughput-pairs.ts";
import {
  CEILING_TARGET,
  ENDPOINTS,
  type Endpoint,
  endpointsOf,
  type Measurements,
  noMeasurements,
  pairRounds,
  pairSeconds,
  processWarmupSeconds,
  RAISED_LIMIT,
  record,
  type Target,
} from "./throughput-plan.ts";
import { report } from "./throughput-report.ts";

const DEFAULT_SIZE = 20_000;

/** The running processes, by target name. */
type Running = Map<string, Child>;

function urlIn(running: Running, name: string): string {
  const child = running.get(name);
  if (!child) throw new Error(`${name} is not running`);
  return urlOf(child);
}

export async function throughput(ctx: BenchContext): Promise<Section> {
  const db = await benchDatabase(DEFAULT_SIZE);
  const bodiesFile = join(ctx.tmp, "bodies.json");
  const targets = throughputTargets(
    { dbPath: db.path, size: db.size, clockStartSeconds: db.referenceTime },
    bodiesFile,
  );
  const measured = noMeasurements();
  // Everything runs at once (idle servers cost nothing) so that runs can be interleaved:
  // target A, B, C, then A, B, C again, and a burst of noise on the shared machine hits all alike.
  const running: Running = new Map();
  try {
    ctx.log("throughput: starting the reference server, capturing its bodies");
    running.set("server", await (targets[0] as Target).start());
    await captureBodies(urlIn(running, "server"), bodiesFile, measured);
    ctx.log(
      "throughput: starting bare node:http, Prism (plain and with the rule layer), the server without limiter",
    );
    // Started together: each start is mostly tsx compiling and Prism loading the spec, idle CPU aside.
    const started = await Promise.all(targets.slice(1).map(async (t) => [t.name, await t.start()] as const));
    for (const [name, child] of started) running.set(name, child);
    await prismBodySizes(ctx, urlIn(running, "prism"), measured);
    await warmUpProcesses(ctx, targets, running);
    for (const e of ENDPOINTS) await measureEndpoint(ctx, e, targets, running, measured);
    return report(ctx, measured, targets);
  } finally {
    await Promise.all([...running.values()].map((c) => c.stop()));
  }
}

/** The reference server first (its answers are what the bare servers replay), then what it is compared with. */
function throughputTargets(serverOptions: Record<string, unknown>, bodiesFile: string): Target[] {
  const reference = join(REPO, "bench/servers/reference.ts");
  const baseline = join(REPO, "bench/baseline-server.ts");
  const mock = join(REPO, "bench/servers/mock.ts");
  return [
    {
      name: "server",
      label: "reference server (limit raised)",
      start: () => startChild(reference, { ...serverOptions, rateLimit: RAISED_LIMIT }),
    },
    {
      name: "baseline",
      label: "bare node:http (same bytes: body and header lines)",
      start: () => startChild(baseline, { bodiesFile, headers: "captured" }),
    },
    {
      // The ceiling before issue 25's work: the body with Content-Type and Content-Length only.
      name: "baseline-body",
      label: "bare node:http (same body, 2 header lines)",
      only: CEILING_TARGET,
      start: () => startChild(baseline, { bodiesFile, headers: "body-only" }),
    },
    {
      name: "prism",
      label: "Prism static (no rule layer)",
      start: () => startChild(mock, { rules: false }),
    },
    {
      name: "server-no-limit",
      label: "reference server, limiter off",
      only: ["rank-20", "meta"],
      start: () => startChild(reference, { ...serverOptions, rateLimit: false }),
    },
    {
      name: "prism-rules",
      label: "Prism + rule layer",
      only: ["rank-20", "meta"],
      start: () => startChild(mock, { rules: true }),
    },
  ];
}

/** The server's answer to every endpoint, written where the bare servers read what they replay. */
async function captureBodies(serverUrl: string, bodiesFile: string, measured: Measurements): Promise<void> {
  const captured: Record<string, CapturedBody> = {};
  for (const e of ENDPOINTS) {
    const { status, headers, body } = await rawGet(serverUrl + e.path);
    if (status !== 200) throw new Error(`${e.path} answered ${status}: ${body.toString().slice(0, 300)}`);
    captured[e.path] = capture(headers, body);
    measured.bodyBytes[e.id] = { server: body.length };
  }
  writeFileSync(bodiesFile, JSON.stringify(captured));
}

async function prismBodySizes(ctx: BenchContext, prismUrl: string, measured: Measurements): Promise<void> {
  for (const e of ENDPOINTS) {
    const res = await fetch(prismUrl + e.path);
    measured.bodyBytes[e.id] = { ...measured.bodyBytes[e.id], prism: (await res.arrayBuffer()).byteLength };
    if (res.status !== 200) ctx.log(`  note: Prism answered ${res.status} to ${e.path}`);
  }
}

/**
 * Every process warmed up on all its endpoints before anything is measured: under its first
 * seconds of load the reference server JIT-compiles its request path and collects its start-up
 * garbage (a mark-compact of ≈ 40 ms), which fell into rank-20's runs (measured first) and not
 * into bare node:http's, whose code is a few lines.
 */
async function warmUpProcesses(ctx: BenchContext, targets: Target[], running: Running): Promise<void> {
  for (const t of targets) {
    await load({
      url: urlIn(running, t.name),
      paths: endpointsOf(t).map((e) => e.path),
      connections: ctx.connections,
      durationSeconds: processWarmupSeconds(ctx),
    });
  }
}

/** One endpoint: each target warmed up on it, then the rounds of the pair, the other targets between them. */
async function measureEndpoint(
  ctx: BenchContext,
  e: Endpoint,
  targets: Target[],
  running: Running,
  measured: Measurements,
): Promise<void> {
  const here = targets.filter((t) => endpointsOf(t).includes(e));
  for (const t of here) {
    await load({
      url: urlIn(running, t.name) + e.path,
      connections: ctx.connections,
      durationSeconds: ctx.warmupSeconds,
    });
  }
  const rounds = pairRounds(ctx);
  // The other targets' ctx.runs runs go after the pair in every step-th round.
  const step = Math.max(1, Math.floor(rounds / ctx.runs));
  const others = here.filter((t) => t.name !== "server" && t.name !== "baseline");
  const measure = (target: string, seconds: number) => measureRun(ctx, e, target, seconds, running, measured);
  for (let round = 0; round < rounds; round++) {
    for (const name of pairOrder(round, "server", "baseline")) await measure(name, pairSeconds(ctx));
    if (round % step === 0 && round / step < ctx.runs) {
      for (const t of others) await measure(t.name, ctx.seconds);
    }
  }
  const s = measured.runs[e.id] ?? {};
  ctx.log(
    `  ${e.id}: ${here.map((t) => `${t.name} ${formatNumber(summarize(s[t.name] ?? []).rps)}`).join(", ")} req/s`,
  );
}

/** One timed run, with the CPU its process spent on it (in all, and by thread). */
async function measureRun(
  ctx: BenchContext,
  endpoint: Endpoint,
  target: string,
  seconds: number,
  running: Running,
  measured: Measurements,
): Promise<void> {
  const pid = running.get(target)?.process.pid;
  const cpuBefore = cpuSeconds(pid);
  const threadsBefore = threadCpuSeconds(pid);
  const run = await load({
    url: urlIn(running, target) + endpoint.path,
    connections: ctx.connections,
    durationSeconds: seconds,
  });
  const threadsAfter = threadCpuSeconds(pid);
  const perRequestUs = (s: number) => (s * 1e6) / (run.rps * seconds);
  record(measured, endpoint.id, target, run, perRequestUs(cpuSeconds(pid) - cpuBefore), [
    perRequestUs(threadsAfter.main - threadsBefore.main),
    perRequestUs(threadsAfter.others - threadsBefore.others),
  ]);
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
