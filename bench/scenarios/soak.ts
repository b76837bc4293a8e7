/**
 * `dealkit proxy` over time: its memory (RSS) under a steady load from many client addresses, in
 * front of `serve --live` (data moving, so comparisons keep finding moved data), the proxy
 * adding each client to X-Forwarded-For and the server trusting it. What the proxy keeps per
 * client and per exchange is bounded by count and age (conformance/README.md, "Passive
 * conformance: memory"); this shows the bound holds: RSS flat and under the target.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { BenchContext } from "../context.ts";
import { REPO, startChild, urlOf } from "../procs.ts";
import { proxyListening, stopProxy } from "../proxy-process.ts";
import { formatNumber, median } from "../stats.ts";
import type { Section } from "../types.ts";

/** The issue's figure: an hour at 200 req/s from 200 client addresses. */
const HOUR = { seconds: 3600, rate: 200 };
/** The load is compressed: the hour's exchanges at this rate (what the proxy judges steadily here). */
const SOAK_RATE = 400;
/** The soak's full length: the hour's exchanges at SOAK_RATE (30 minutes). */
export const FULL_SOAK_SECONDS = Math.round((HOUR.seconds * HOUR.rate) / SOAK_RATE);
/** Client addresses active at once, and how many requests one sends before it goes (a new one comes). */
const ACTIVE_CLIENTS = 200;
const REQUESTS_PER_CLIENT = 120;
const TARGET_RSS_MB = 256;
/** Flat: RSS over the second half of the run grows by at most this much. */
const FLAT_MB = 16;
const SAMPLE_EVERY_MS = 5000;
const LIMIT = { limit: 1_000_000_000, windowSeconds: 60 };

/** What one client asks in turn: every public endpoint, and variants of a search (A, B, A′ groups). */
const PATHS = [
  "/api/v1/rank?act=ershisixiaoshi&limit=20",
  "/api/v1/feed?cate=all&limit=20",
  `/api/v1/search?q=${encodeURIComponent("京东")}&limit=20`,
  `/api/v1/search?q=${encodeURIComponent("京东")}&limit=10`,
  `/api/v1/search?q=${encodeURIComponent("京东")}&limit=20`,
  "/api/v1/rank?act=sanxiaoshi&limit=20",
  "/api/v1/meta",
];

const rssMb = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
};

/**
 * The CLI as the package installs it: compiled JavaScript (scripts/build.ts) started by the
 * package's bin. The checkout's bin runs the TypeScript sources through tsx instead, which costs
 * each of the proxy's two threads its own compiler (about 40 MB more RSS) and is not what a user
 * runs. Built beside the bench databases, so the repository's node_modules resolve.
 */
function buildPackage(): string {
  const root = join(REPO, ".data", "bench", "soak-package");
  execFileSync(process.execPath, ["--import", "tsx", "scripts/build.ts", "--out", join(root, "dist")], {
    cwd: REPO,
    stdio: "ignore",
  });
  mkdirSync(join(root, "bin"), { recursive: true });
  copyFileSync(join(REPO, "bin/dealkit.js"), join(root, "bin/dealkit.js"));
  copyFileSync(join(REPO, "package.json"), join(root, "package.json"));
  return join(root, "bin/dealkit.js");
}

function startProxy(
  bin: string,
  upstream: string,
  reportPath: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      bin,
      "proxy",
      ...["--upstream", upstream, "--port", "0", "--forwarded-for"],
      ...["--rate", `${LIMIT.limit}/MIN`, "--report", `json=${reportPath}`],
    ],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] },
  );
  return proxyListening(child);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

interface Tally {
  sent: number;
  byStatus: Record<string, number>;
  errors: number;
  addresses: number;
}

/**
 * ACTIVE_CLIENTS keep-alive clients, each from its own loopback address (127.1.x.y), paced so
 * that all together send `rate` req/s; a client leaves after REQUESTS_PER_CLIENT requests and a
 * new address takes its place, so the proxy meets many more clients than are active at once.
 */
async function steadyLoad(url: string, rate: number, durationMs: number, tally: Tally): Promise<void> {
  const paceMs = (ACTIVE_CLIENTS * 1000) / rate;
  const deadline = performance.now() + durationMs;
  let nextAddress = 0;
  const address = () => {
    const n = nextAddress++;
    tally.addresses = nextAddress;
    return `127.1.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  };
  const one = (agent: Agent, localAddress: string, path: string) =>
    new Promise<void>((resolve) => {
      get(url + path, { agent, localAddress }, (res) => {
        const key = String(res.statusCode ?? 0);
        tally.byStatus[key] = (tally.byStatus[key] ?? 0) + 1;
        res.resume();
        res.once("end", resolve);
        res.once("error", () => resolve());
      }).once("error", () => {
        tally.errors++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: ACTIVE_CLIENTS }, async (_, c) => {
      await sleep((c * paceMs) / ACTIVE_CLIENTS);
      let next = performance.now();
      while (performance.now() < deadline) {
        const from = address();
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; i < REQUESTS_PER_CLIENT && performance.now() < deadline; i++) {
          tally.sent++;
          await one(agent, from, PATHS[(c + i) % PATHS.length] as string);
          next += paceMs;
          await sleep(next - performance.now());
        }
        agent.destroy();
      }
    }),
  );
}

interface ProxyReport {
  passive?: {
    exchanges: number;
    judged: number;
    findings: number;
    notJudged: Record<string, number>;
    released?: Record<string, number>;
  };
  checks: { status: string }[];
}

export async function soak(ctx: BenchContext): Promise<Section> {
  const hourExchanges = HOUR.seconds * HOUR.rate;
  const seconds = ctx.args.soakSeconds ?? FULL_SOAK_SECONDS;
  const server = await startChild(join(REPO, "bench/servers/reference.ts"), {
    dbPath: ":memory:",
    size: 20_000,
    rateLimit: LIMIT,
    liveEveryMs: 500,
    trustedProxies: ["127.0.0.1"],
  });
  const reportPath = join(ctx.tmp, "soak-report.json");
  ctx.log("soak: building the package (the proxy runs as installed)");
  const { url, child } = await startProxy(buildPackage(), urlOf(server), reportPath);
  const samples: Sample[] = [];
  const tally: Tally = { sent: 0, byStatus: {}, errors: 0, addresses: 0 };
  const t0 = performance.now();
  const sample = () =>
    samples.push({
      t: (performance.now() - t0) / 1000,
      proxy: rssMb(child.pid),
      server: rssMb(server.process.pid),
      load: loadavg()[0] ?? Number.NaN,
    });
  ctx.log(
    `soak: ${formatNumber(SOAK_RATE)} req/s for ${seconds} s (${formatNumber(SOAK_RATE * seconds)} exchanges; an hour at ${HOUR.rate} req/s is ${formatNumber(hourExchanges)}) from ${ACTIVE_CLIENTS} addresses at once`,
  );
  sample();
  const sampler = setInterval(() => {
    sample();
    const s = samples.at(-1);
    if (s)
      ctx.log(
        `  ${s.t.toFixed(0)} s: proxy ${s.proxy.toFixed(0)} MB, server ${s.server.toFixed(0)} MB, ${formatNumber(tally.sent)} sent`,
      );
  }, SAMPLE_EVERY_MS);
  try {
    await steadyLoad(url, SOAK_RATE, seconds * 1000, tally);
    sample();
  } finally {
    clearInterval(sampler);
    await stopProxy(child);
    await server.stop();
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as ProxyReport;
  return section(seconds, samples, tally, report);
}

/** One reading: seconds into the run, both RSS in MB, and the machine's 1-minute load average. */
interface Sample {
  t: number;
  proxy: number;
  server: number;
  load: number;
}

function section(seconds: number, samples: Sample[], tally: Tally, report: ProxyReport): Section {
  const proxyMax = Math.max(...samples.map((s) => s.proxy));
  const half = samples.filter((s) => s.t >= seconds / 2);
  const firstOfHalf = median(half.slice(0, 3).map((s) => s.proxy));
  const lastOfHalf = median(half.slice(-3).map((s) => s.proxy));
  const growth = lastOfHalf - firstOfHalf;
  const fiveXX = Object.entries(tally.byStatus)
    .filter(([s]) => s.startsWith("5"))
    .reduce((n, [, c]) => n + c, 0);
  const passive = report.passive;
  const every = Math.max(1, Math.round(samples.length / 24));
  const curve = samples.filter((_, i) => i % every === 0 || i === samples.length - 1);
  return {
    id: "soak",
    title: "dealkit proxy: memory over a soak",
    method:
      `\`dealkit proxy --forwarded-for\` (the CLI as the package installs it, compiled JavaScript, its own process, judging in its worker, past whose backlog an exchange is counted as not judged) in front of the reference server with \`--live 500ms\` ` +
      `(20k alerts generated at start, the proxy's address trusted, limit raised). ${ACTIVE_CLIENTS} keep-alive clients at once, each from its own loopback address, ` +
      `paced to ${formatNumber(SOAK_RATE)} req/s in all over rank, feed, search (with A, B, A′ variants) and meta; a client leaves after ${REQUESTS_PER_CLIENT} requests and a new address comes. ` +
      `An hour at ${HOUR.rate} req/s (${formatNumber(HOUR.seconds * HOUR.rate)} exchanges) is compressed into ${formatNumber(Math.round((HOUR.seconds * HOUR.rate) / SOAK_RATE))} s at this rate; this run lasted ${seconds} s. ` +
      `RSS of the proxy (both threads) and of the server read from /proc every ${SAMPLE_EVERY_MS / 1000} s.`,
    tables: [
      {
        caption: "RSS over the run (MB)",
        columns: ["s", "proxy RSS", "server RSS"],
        rows: curve.map((s) => [s.t.toFixed(0), s.proxy.toFixed(0), s.server.toFixed(0)]),
      },
    ],
    targets: [
      {
        name: `dealkit proxy RSS ≤ ${TARGET_RSS_MB} MB through the soak`,
        met: proxyMax <= TARGET_RSS_MB,
        value: proxyMax,
        unit: " MB",
        measured: `max ${proxyMax.toFixed(0)} MB over ${formatNumber(tally.sent)} exchanges from ${formatNumber(tally.addresses)} addresses`,
      },
      {
        name: `dealkit proxy RSS flat (≤ ${FLAT_MB} MB growth over the second half)`,
        met: growth <= FLAT_MB,
        value: growth,
        unit: " MB",
        measured: `${firstOfHalf.toFixed(0)} → ${lastOfHalf.toFixed(0)} MB from ${(seconds / 2).toFixed(0)} s to the end`,
      },
    ],
    notes: [
      // A busy machine slows the judge, whose backlog then stays at its bound: say how busy it was.
      `The machine's load average (1 minute, 2 cores) over the run: median ${median(samples.map((s) => s.load)).toFixed(1)}, max ${Math.max(...samples.map((s) => s.load)).toFixed(1)}.`,
      `Answers: ${Object.entries(tally.byStatus)
        .map(([s, n]) => `${formatNumber(n)} × ${s}`)
        .join(", ")}; ${fiveXX} × 5xx, ${tally.errors} failed requests.`,
      passive
        ? `The proxy saw ${formatNumber(passive.exchanges)} exchanges, judged ${formatNumber(passive.judged)}, ${formatNumber(passive.findings)} findings` +
          (Object.keys(passive.notJudged).length
            ? `; not judged: ${Object.entries(passive.notJudged)
                .map(([why, n]) => `${formatNumber(n)} ${why}`)
                .join(", ")}`
            : "") +
          (passive.released && Object.keys(passive.released).length
            ? `; let go at the bounds: ${Object.entries(passive.released)
                .map(([why, n]) => `${formatNumber(n)} ${why}`)
                .join(", ")}`
            : "") +
          "."
        : "The proxy wrote no report.",
    ],
    data: { seconds, rate: SOAK_RATE, samples, tally, passive },
  };
}
