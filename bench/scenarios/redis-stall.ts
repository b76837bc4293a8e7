/**
 * redis-stall: the rate-limit store's failure policy (reference-server/README.md, "Rate-limit
 * store: when Redis fails") measured at the HTTP level. Two instances share one real redis-server;
 * under a steady paced load Redis is frozen with SIGSTOP (the connection stays open and nothing
 * answers), then woken with SIGCONT. Per phase: latency, 5xx and errors; during the stall, that
 * the limit holds per instance; after it, how soon the instances share the limit again.
 */
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchContext } from "../context.ts";
import { type Child, REPO, startChild, urlOf } from "../procs.ts";
import { redisAvailable, startRedis } from "../redis.ts";
import { formatNumber, formatRatio, quantile, ratio } from "../stats.ts";
import type { Section, Table, TargetResult } from "../types.ts";

const SERVER = join(REPO, "bench/servers/reference.ts");
const PATHS = ["/api/v1/meta", "/api/v1/rank?act=yixiaoshi"];
/** Targets of the issue: p99 during the stall, rejoin after SIGCONT. */
const STALL_P99_TARGET_MS = 200;
const REJOIN_TARGET_S = 5;
/** Load: CLIENTS keep-alive connections, each sending one request every INTERVAL_MS (paced, not flat out). */
const CLIENTS = 40;
const INTERVAL_MS = 20;
/** The load pair's limit: high enough that the load itself is never refused. */
const LOAD_LIMIT = 1_000_000;
/** The limit pair's limit (per 60 s): small, so that per-instance and shared counting are told apart. */
const SMALL_LIMIT = 10;
/** How often the rejoin is polled after SIGCONT, and how long at most. */
const POLL_MS = 50;
const REJOIN_GIVE_UP_S = 20;

// ---------------------------------------------------------------- HTTP

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function get(
  url: string,
  {
    agent,
    localAddress,
    timeoutMs = 10_000,
  }: { agent?: Agent; localAddress?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: agent ?? false, ...(localAddress ? { localAddress } : {}), timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("error", reject);
        res.once("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.once("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.once("error", reject);
    req.end();
  });
}

/** Fresh client addresses (127.77.x.y), one per check, so that no count is left from an earlier one. */
let addressCounter = 0;
function freshAddress(): string {
  const n = addressCounter++;
  return `127.77.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

type StoreMode = "shared" | "local" | "off" | "unknown";

async function storeOf(base: string): Promise<StoreMode> {
  try {
    const r = await get(`${base}/healthz`, { timeoutMs: 2000 });
    return ((JSON.parse(r.body) as { rateLimit?: { store?: StoreMode } }).rateLimit?.store ??
      "unknown") as StoreMode;
  } catch {
    return "unknown";
  }
}

/**
 * One request to A, then one to B, from the same fresh address: shared counting shows B's
 * RateLimit-Remaining one below A's; separate counting shows both at limit − 1.
 */
async function remainingPair(a: string, b: string): Promise<{ a: number; b: number; shared: boolean }> {
  const localAddress = freshAddress();
  const ra = await get(`${a}/api/v1/meta`, { localAddress, timeoutMs: 2000 });
  const rb = await get(`${b}/api/v1/meta`, { localAddress, timeoutMs: 2000 });
  const remA = Number(ra.headers["ratelimit-remaining"]);
  const remB = Number(rb.headers["ratelimit-remaining"]);
  return { a: remA, b: remB, shared: Number.isFinite(remA) && remB === remA - 1 };
}

// ---------------------------------------------------------------- paced load

interface Sample {
  start: number;
  end: number;
  status: number;
  error?: string;
}

/** CLIENTS keep-alive connections over the given instances, one request each every INTERVAL_MS. */
class PacedLoad {
  readonly samples: Sample[] = [];
  private stopping = false;
  private readonly agents: Agent[] = [];
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly bases: string[],
    private readonly requestTimeoutMs: number,
  ) {}

  start(): void {
    for (let i = 0; i < CLIENTS; i++) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      this.agents.push(agent);
      this.loops.push(this.client(i, agent));
    }
  }

  private async client(i: number, agent: Agent): Promise<void> {
    const base = this.bases[i % this.bases.length] as string;
    const localAddress = `127.0.1.${i + 1}`;
    // Staggered so that the clients do not all send in the same millisecond.
    await sleep((INTERVAL_MS * i) / CLIENTS);
    let next = performance.now();
    for (let n = 0; !this.stopping; n++) {
      const start = performance.now();
      try {
        const r = await get(base + PATHS[n % PATHS.length], {
          agent,
          localAddress,
          timeoutMs: this.requestTimeoutMs,
        });
        this.samples.push({ start, end: performance.now(), status: r.status });
      } catch (err) {
        this.samples.push({ start, end: performance.now(), status: 0, error: (err as Error).message });
      }
      next += INTERVAL_MS;
      const now = performance.now();
      if (next < now)
        next = now; // late: send at once, no catch-up burst
      else await sleep(next - now);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
    for (const agent of this.agents) agent.destroy();
  }
}

interface PhaseStats {
  phase: string;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  status5xx: number;
  otherNon2xx: number;
  errors: number;
  errorExamples: string[];
  /** The slowest requests: latency and when they started, in seconds from SIGSTOP. */
  slowest: { ms: number; atS: number }[];
  /** The load generator's own event-loop delay, max over the phase (its lag is in every latency). */
  clientLagMaxMs: number;
}

function phaseStats(
  phase: string,
  samples: Sample[],
  seconds: number,
  tStop: number,
  clientLagMaxMs: number,
): PhaseStats {
  const ms = samples.map((s) => s.end - s.start);
  const errors = samples.filter((s) => s.status === 0);
  return {
    phase,
    seconds,
    requests: samples.length,
    rps: samples.length / seconds,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    max: ms.length ? Math.max(...ms) : Number.NaN,
    status5xx: samples.filter((s) => s.status >= 500).length,
    otherNon2xx: samples.filter((s) => s.status !== 0 && s.status < 500 && (s.status < 200 || s.status > 299))
      .length,
    errors: errors.length,
    errorExamples: [...new Set(errors.map((s) => s.error ?? ""))].slice(0, 3),
    slowest: [...samples]
      .sort((x, y) => y.end - y.start - (x.end - x.start))
      .slice(0, 5)
      .map((s) => ({ ms: s.end - s.start, atS: (s.start - tStop) / 1000 })),
    clientLagMaxMs,
  };
}

// ---------------------------------------------------------------- limit checks

interface LimitCheck {
  when: string;
  stores: StoreMode[];
  /** 200s answered by each instance, in order C, D. */
  allowed: [number, number];
  /** The request (1-based) each instance first refused, or 0. */
  firstRefused: [number, number];
  statuses: number[];
}

/**
 * 2 × limit + 2 requests from one fresh address, alternating C and D, each on a new connection:
 * shared counting allows `limit` in all; per-instance counting allows `limit` on each, and each
 * instance refuses its (limit + 1)th.
 */
async function limitCheck(when: string, c: string, d: string): Promise<LimitCheck> {
  const localAddress = freshAddress();
  const statuses: number[] = [];
  const allowed: [number, number] = [0, 0];
  const firstRefused: [number, number] = [0, 0];
  const seen: [number, number] = [0, 0];
  for (let i = 0; i < 2 * SMALL_LIMIT + 2; i++) {
    const k = (i % 2) as 0 | 1;
    const r = await get(`${k === 0 ? c : d}/api/v1/meta`, { localAddress, timeoutMs: 5000 });
    statuses.push(r.status);
    seen[k]++;
    if (r.status === 200) allowed[k]++;
    else if (r.status === 429 && firstRefused[k] === 0) firstRefused[k] = seen[k];
  }
  return { when, stores: await Promise.all([storeOf(c), storeOf(d)]), allowed, firstRefused, statuses };
}

const perInstanceHolds = (l: LimitCheck) =>
  l.allowed[0] === SMALL_LIMIT &&
  l.allowed[1] === SMALL_LIMIT &&
  l.firstRefused[0] === SMALL_LIMIT + 1 &&
  l.firstRefused[1] === SMALL_LIMIT + 1;
const sharedHolds = (l: LimitCheck) =>
  l.allowed[0] + l.allowed[1] === SMALL_LIMIT && l.statuses.every((s) => s === 200 || s === 429);

/** Polls both instances' /healthz until both say `mode`, or gives up; seconds waited, NaN when it never did. */
async function waitForStores(bases: string[], mode: StoreMode, giveUpS: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < giveUpS * 1000) {
    const modes = await Promise.all(bases.map(storeOf));
    if (modes.every((m) => m === mode)) return (performance.now() - t0) / 1000;
    await sleep(POLL_MS);
  }
  return Number.NaN;
}

// ---------------------------------------------------------------- the scenario

const TITLE = "Redis stall: rate-limit store failure policy under load";

interface Durations {
  stallS: number;
  beforeS: number;
  afterS: number;
}

type Pair = Awaited<ReturnType<typeof remainingPair>>;

/** What one run measured, in the order it happened. */
interface StallRun extends Durations {
  pairBefore: Pair;
  limitBefore: LimitCheck;
  pairStall: Pair;
  storesStall: StoreMode[];
  limitStall: LimitCheck;
  /** Seconds after SIGCONT until A and B said shared on /healthz, and counted one address together. */
  healthSharedS: number;
  headersSharedS: number;
  /** The same for the idle pair C and D (/healthz only). */
  cdSharedS: number;
  limitAfter: LimitCheck;
  phases: readonly [PhaseStats, PhaseStats, PhaseStats];
}

/** What a run started, for the cleanup whatever happens. */
interface Running {
  children: Child[];
  load?: PacedLoad;
}

export async function redisStall(ctx: BenchContext): Promise<Section> {
  if (!redisAvailable()) return notRun();
  const durations: Durations = {
    stallS: ctx.args.stallSeconds ?? (ctx.args.quick ? 5 : 10),
    beforeS: ctx.args.quick ? 2 : 4,
    afterS: ctx.args.quick ? 3 : 5,
  };
  const redis = await startRedis();
  const running: Running = { children: [] };
  const lag = monitorEventLoopDelay({ resolution: 5 });
  try {
    const run = await stallUnderLoad(ctx, redis, durations, running, lag);
    logRun(ctx, run);
    return sectionOf(run);
  } finally {
    lag.disable();
    // Whatever happened: wake Redis, stop the load and the servers, then Redis.
    redis.thaw();
    await running.load?.stop().catch(() => undefined);
    await Promise.all(running.children.map((c) => c.stop()));
    await redis.stop();
  }
}

function notRun(): Section {
  return {
    id: "redis-stall",
    title: TITLE,
    method: "Not run: redis-server is not installed (apt-get install -y redis-server).",
    tables: [],
    targets: [
      { name: "p99 < 200 ms while Redis is stopped", met: null, measured: "redis-server not installed" },
    ],
    notes: ["Install it with `apt-get install -y redis-server`."],
    data: {},
  };
}

/** Four instances sharing Redis: A and B carry the load; C and D (small limit, no load) show how the limit is counted. */
async function startInstances(redisUrl: string, running: Running): Promise<[string, string, string, string]> {
  const common = { dbPath: ":memory:", size: 2000, redisUrl, logger: false };
  const start = (limit: number) => startChild(SERVER, { ...common, rateLimit: { limit, windowSeconds: 60 } });
  const started = await Promise.all([
    start(LOAD_LIMIT),
    start(LOAD_LIMIT),
    start(SMALL_LIMIT),
    start(SMALL_LIMIT),
  ]);
  running.children.push(...started);
  const bases = started.map(urlOf) as [string, string, string, string];
  if (!Number.isFinite(await waitForStores(bases, "shared", 5)))
    throw new Error("the instances did not join Redis within 5 s of their start");
  return bases;
}

type Redis = Awaited<ReturnType<typeof startRedis>>;
type LagMonitor = ReturnType<typeof monitorEventLoopDelay>;

/** The run: before, SIGSTOP for the stall, SIGCONT and the rejoin, then after; the load paced throughout. */
async function stallUnderLoad(
  ctx: BenchContext,
  redis: Redis,
  durations: Durations,
  running: Running,
  lag: LagMonitor,
): Promise<StallRun> {
  const { stallS, beforeS, afterS } = durations;
  const lagMaxMs = () => {
    const max = lag.max / 1e6;
    lag.reset();
    return max;
  };
  const [a, b, c, d] = await startInstances(redis.url, running);
  const pairBefore = await remainingPair(a, b);
  const limitBefore = await limitCheck("before (Redis up)", c, d);

  // Warm-up: connections open, JIT warm, before anything is measured.
  const load = new PacedLoad([a, b], (stallS + 30) * 1000);
  running.load = load;
  load.start();
  await sleep(1000);
  lag.enable();
  const t0 = performance.now();
  await sleep(beforeS * 1000);

  ctx.log(`  SIGSTOP redis-server (pid ${redis.pid}) for ${stallS} s under load`);
  const tStop = performance.now();
  redis.freeze();
  const lagBefore = lagMaxMs();
  const stalled = await whileStopped([a, b, c, d], tStop, stallS);

  const tCont = performance.now();
  redis.thaw();
  const lagStall = lagMaxMs();
  ctx.log("  SIGCONT redis-server");
  const pollCD = waitForStores([c, d], "shared", REJOIN_GIVE_UP_S);
  const rejoin = await loadedPairRejoin(a, b, tCont);
  await sleep(Math.max(0, tCont + afterS * 1000 - performance.now()));
  const tEnd = performance.now();
  const lagAfter = lagMaxMs();
  lag.disable();
  await load.stop();
  running.load = undefined;

  const cdSharedS = await pollCD;
  const limitAfter = await limitCheck("after SIGCONT", c, d);
  const phases = splitPhases(load.samples, { t0, tStop, tCont, tEnd }, [lagBefore, lagStall, lagAfter]);
  return { ...durations, pairBefore, limitBefore, ...stalled, ...rejoin, cdSharedS, limitAfter, phases };
}

/** Mid-stall: how A and B count one address, what they report, and how C and D enforce the limit; then the stall's end. */
async function whileStopped([a, b, c, d]: string[], tStop: number, stallS: number) {
  await sleep((stallS * 1000) / 2);
  const [pairStall, storesStall] = await Promise.all([
    remainingPair(a as string, b as string),
    Promise.all([storeOf(a as string), storeOf(b as string)]),
  ]);
  const limitStall = await limitCheck("during the stall", c as string, d as string);
  await sleep(Math.max(0, tStop + stallS * 1000 - performance.now()));
  return { pairStall, storesStall, limitStall };
}

/**
 * Rejoin of the loaded pair: /healthz of both says shared, and one address's requests to A then B
 * are counted together (RateLimit-Remaining one lower on B). Seconds from SIGCONT, NaN if never.
 */
async function loadedPairRejoin(a: string, b: string, tCont: number) {
  let healthSharedS = Number.NaN;
  let headersSharedS = Number.NaN;
  while (performance.now() - tCont < REJOIN_GIVE_UP_S * 1000) {
    const elapsed = () => (performance.now() - tCont) / 1000;
    if (Number.isNaN(healthSharedS)) {
      const modes = await Promise.all([storeOf(a), storeOf(b)]);
      if (modes.every((m) => m === "shared")) healthSharedS = elapsed();
    }
    if (Number.isNaN(headersSharedS)) {
      const pair = await remainingPair(a, b).catch(() => undefined);
      if (pair?.shared) headersSharedS = elapsed();
    }
    if (!Number.isNaN(healthSharedS) && !Number.isNaN(headersSharedS)) break;
    await sleep(POLL_MS);
  }
  return { healthSharedS, headersSharedS };
}

/** The measured samples by phase. A request belongs to the stall when any part of it falls in [SIGSTOP, SIGCONT). */
function splitPhases(
  samples: Sample[],
  { t0, tStop, tCont, tEnd }: { t0: number; tStop: number; tCont: number; tEnd: number },
  [lagBefore, lagStall, lagAfter]: number[],
): StallRun["phases"] {
  const measured = samples.filter((s) => s.start >= t0 && s.end <= tEnd);
  const before = measured.filter((s) => s.end < tStop);
  const stall = measured.filter((s) => s.end >= tStop && s.start < tCont);
  const after = measured.filter((s) => s.start >= tCont);
  return [
    phaseStats("before", before, (tStop - t0) / 1000, tStop, lagBefore as number),
    phaseStats("stall (SIGSTOP)", stall, (tCont - tStop) / 1000, tStop, lagStall as number),
    phaseStats("after SIGCONT", after, (tEnd - tCont) / 1000, tStop, lagAfter as number),
  ] as const;
}

// ---------------------------------------------------------------- the report

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : "n/a");
const sec = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} s` : `not within ${REJOIN_GIVE_UP_S} s`);

/** The figures the targets and notes are judged on. */
function totals({ phases, healthSharedS, headersSharedS }: StallRun) {
  const [pb, ps] = phases;
  return {
    stallOverBefore: ratio(ps.p99, pb.p99),
    total5xx: phases.reduce((n, p) => n + p.status5xx, 0),
    totalErrors: phases.reduce((n, p) => n + p.errors, 0),
    rejoinS: Math.max(healthSharedS, headersSharedS),
  };
}

function logRun(ctx: BenchContext, run: StallRun): void {
  for (const p of run.phases)
    ctx.log(
      `  ${p.phase}: ${p.requests} requests (${formatNumber(p.rps)}/s), p50 ${ms(p.p50)} p99 ${ms(p.p99)} max ${ms(p.max)} ms, ${p.status5xx} × 5xx, ${p.errors} errors`,
    );
  ctx.log(
    `  stall p99 / before p99 ${formatRatio(totals(run).stallOverBefore)}; shared again after SIGCONT: /healthz ${sec(run.healthSharedS)}, counts ${sec(run.headersSharedS)}`,
  );
}

function targetsOf(run: StallRun): TargetResult[] {
  const [pb, ps, pa] = run.phases;
  const { limitStall, limitBefore, limitAfter, healthSharedS, headersSharedS } = run;
  const { stallOverBefore, total5xx, totalErrors, rejoinS } = totals(run);
  return [
    {
      name: `p99 < ${STALL_P99_TARGET_MS} ms while Redis is stopped (${run.stallS} s SIGSTOP under load)`,
      met: ps.p99 < STALL_P99_TARGET_MS,
      measured: `${ms(ps.p99)} ms (max ${ms(ps.max)} ms); before ${ms(pb.p99)} ms, stall / before ${formatRatio(stallOverBefore)}`,
      value: ps.p99,
      unit: " ms",
    },
    {
      name: "no 5xx and no failed request through the stall",
      met: total5xx === 0 && totalErrors === 0,
      measured: `${total5xx} × 5xx, ${totalErrors} errors in ${formatNumber(pb.requests + ps.requests + pa.requests)} requests`,
      value: total5xx + totalErrors,
      unit: "",
    },
    {
      name: "limit enforced per instance while Redis is stopped",
      met: perInstanceHolds(limitStall),
      measured: `${SMALL_LIMIT}/min per instance: ${limitStall.allowed.join(" + ")} allowed, each refused #${limitStall.firstRefused.join(" / #")} (stores ${limitStall.stores.join(", ")}); with Redis up ${limitBefore.allowed.join(" + ")}`,
    },
    {
      name: `instances share the limit again ≤ ${REJOIN_TARGET_S} s after SIGCONT`,
      met: Number.isFinite(rejoinS) && rejoinS <= REJOIN_TARGET_S && sharedHolds(limitAfter),
      measured: `${sec(rejoinS)} (/healthz ${sec(healthSharedS)}, counts ${sec(headersSharedS)}); then ${limitAfter.allowed.join(" + ")} of ${SMALL_LIMIT} allowed across both`,
      value: rejoinS,
      unit: " s",
    },
  ];
}

function phaseTable(phases: StallRun["phases"]): Table {
  return {
    caption: `Load on instances A and B: ${CLIENTS} keep-alive clients, one GET each every ${INTERVAL_MS} ms (meta and rank?act=yixiaoshi in turn)`,
    columns: [
      "phase",
      "s",
      "requests",
      "req/s",
      "p50 ms",
      "p99 ms",
      "max ms",
      "5xx",
      "other non-2xx",
      "errors",
      "load generator lag max ms",
    ],
    rows: phases.map((p) => [
      p.phase,
      p.seconds.toFixed(1),
      formatNumber(p.requests),
      formatNumber(p.rps),
      ms(p.p50),
      ms(p.p99),
      ms(p.max),
      p.status5xx,
      p.otherNon2xx,
      p.errors,
      ms(p.clientLagMaxMs),
    ]),
  };
}

function limitTable({ limitBefore, limitStall, limitAfter }: StallRun): Table {
  return {
    caption: `${2 * SMALL_LIMIT + 2} requests from one fresh address alternating instances C and D (limit ${SMALL_LIMIT} per 60 s)`,
    columns: ["when", "store C / D (/healthz)", "200 from C + D", "first 429 on C / D", "expected"],
    rows: [limitBefore, limitStall, limitAfter].map((l) => [
      l.when,
      l.stores.join(" / "),
      `${l.allowed[0]} + ${l.allowed[1]}`,
      l.firstRefused.map((n) => (n ? `#${n}` : "none")).join(" / "),
      l === limitStall ? `${SMALL_LIMIT} + ${SMALL_LIMIT} (per instance)` : `${SMALL_LIMIT} in all (shared)`,
    ]),
  };
}

function stateTable(run: StallRun): Table {
  const pairRow = (when: string, p: Pair, stores: string) => [
    when,
    stores,
    `${p.a} → ${p.b}`,
    p.shared ? "shared" : "separate",
  ];
  return {
    caption: `Instances A and B under load: one fresh address sends to A then B (limit ${formatNumber(LOAD_LIMIT)})`,
    columns: ["when", "store A / B (/healthz)", "RateLimit-Remaining A → B", "counted"],
    rows: [
      pairRow("before", run.pairBefore, "shared / shared"),
      pairRow(`mid-stall (+${(run.stallS / 2).toFixed(1)} s)`, run.pairStall, run.storesStall.join(" / ")),
      [
        "after SIGCONT",
        `both shared at +${sec(run.healthSharedS)}`,
        `counted together at +${sec(run.headersSharedS)}`,
        Number.isFinite(run.headersSharedS) ? "shared" : "separate",
      ],
    ],
  };
}

function sectionOf(run: StallRun): Section {
  const { stallS, beforeS, afterS, phases } = run;
  const [pb, ps] = phases;
  const { stallOverBefore, totalErrors } = totals(run);
  return {
    id: "redis-stall",
    title: TITLE,
    method:
      "A real redis-server on loopback and four reference server processes sharing it (`redisUrl`, default 50 ms " +
      "Redis timeout; 2,000 generated alerts in memory each). A and B carry a paced load " +
      `(${CLIENTS} keep-alive clients from 127.0.1.x, one GET each every ${INTERVAL_MS} ms, limit raised so that the load ` +
      `is never refused): ${beforeS} s before, ${stallS} s with redis-server stopped by SIGSTOP (connections stay open, ` +
      `nothing answers), ${afterS} s after SIGCONT, after 1 s of warm-up. A request belongs to the stall when any part of ` +
      "it falls between SIGSTOP and SIGCONT; latency is timed in the client, request to last byte. The baseline is the " +
      `before phase of the same run. C and D (limit ${SMALL_LIMIT} per 60 s, no load) show how the limit is counted ` +
      "before, during and after the stall; the rejoin is polled every 50 ms after SIGCONT on A and B (`/healthz` store, " +
      "and RateLimit-Remaining of one fresh address's request to A then B).",
    tables: [phaseTable(phases), stateTable(run), limitTable(run)],
    targets: targetsOf(run),
    notes: [
      `The issue's acceptance stops Redis for 60 s (\`npm run bench -- --only redis-stall --stall-seconds 60\`); this run stopped it for ${stallS} s. Once the breaker is open a longer stall only adds requests decided from memory, so the tail comes from the requests in flight at SIGSTOP, which wait the 50 ms timeout once.`,
      `Stall p99 / before p99: ${formatRatio(stallOverBefore)} (${ms(ps.p99)} vs ${ms(pb.p99)} ms). C and D, idle during the stall, were shared again ${sec(run.cdSharedS)} after SIGCONT.`,
      `Slowest requests of the stall: ${ps.slowest.map((x) => `${ms(x.ms)} ms at ${x.atS >= 0 ? "+" : ""}${x.atS.toFixed(2)} s`).join(", ")} (start, from SIGSTOP). The load generator's own event loop lagged at most ${ms(ps.clientLagMaxMs)} ms during the stall (${ms(pb.clientLagMaxMs)} ms before): a lag shows in every latency measured in that moment.`,
      ...(totalErrors > 0 ? [`errors: ${phases.flatMap((p) => p.errorExamples).join("; ")}`] : []),
      "Load generator, four instances and Redis share this machine's cores: absolute latencies are noisy; compare the stall with the before phase of the same run.",
    ],
    data: {
      stallSeconds: stallS,
      clients: CLIENTS,
      intervalMs: INTERVAL_MS,
      phases,
      stallOverBeforeP99: stallOverBefore,
      rejoin: {
        healthSharedS: run.healthSharedS,
        headersSharedS: run.headersSharedS,
        idlePairSharedS: run.cdSharedS,
      },
      pairs: { before: run.pairBefore, stall: { ...run.pairStall, stores: run.storesStall } },
      limitChecks: [run.limitBefore, run.limitStall, run.limitAfter],
    },
  };
}
