/**
 * One conformance run against a base URL, as its phases: discover (is it this API, its rate, its
 * data) → plan (the requests, as data) → execute (the burst, paced requests, fallbacks,
 * exploration) → judge (the burst's verdict; every exchange was judged as it came) → report.
 */
import { type AcceptEntry, applyAcceptList, describeEntry } from "../../src/accept/list.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { baseValues } from "../arbitraries/boundaries.ts";
import { type Account, buildCase } from "../arbitraries/requests.ts";
import { isLoopback, sourceAddresses } from "../http/addresses.ts";
import { type AnswerLimits, closeAgents, DEFAULT_LIMITS } from "../http/client.ts";
import { Pacer } from "../http/pacer.ts";
import { isLedgerCheck } from "../ledger/judge.ts";
import { defaultRegistry, selectChecks, UnknownCheckError } from "../registry.ts";
import type { BurstRecord, Check, CheckContext, Exchange } from "../types.ts";
import { META, usedWords } from "./burst.ts";
import { findCauses } from "./causes.ts";
import { RateDiagnosis } from "./diagnosis.ts";
import { discover, repeatedPathPrefix } from "./discover.ts";
import { releaseBody } from "./exchange.ts";
import { type Execution, execute } from "./execute.ts";
import { Judge } from "./judge.ts";
import { knownMatches, unusedNote } from "./known.ts";
import { buildPlan, candidatesByOperation, type Plan, requestsOf, validCasesOf } from "./plan.ts";
import { Progress, type ProgressState, plainProgressLine } from "./progress.ts";
import { defaultPurpose, notePurposes, requestLine } from "./purposes.ts";
import { checkResults, type RunReport, type TimelinePoint, verdictOf } from "./report.ts";
import { Sender } from "./sender.ts";
import { judgedSpecs } from "./specs.ts";
import { RunEnd } from "./stop.ts";
import { Transport } from "./transport.ts";

export interface RunOptions {
  baseUrl: string;
  seed: number;
  only?: string[];
  skip?: string[];
  /** Most requests of the whole run (default 218 from one address, 4000 spread over loopback). */
  budget?: number;
  /** Overrides the advertised rate (--rate N/MIN). */
  rate?: { limit: number; windowSeconds: number };
  skipSlow?: boolean;
  specPath?: string;
  account?: Account;
  /** Random requests per operation after the plan (default: what the budget leaves; 40 spread). */
  randomRuns?: number;
  /** Source addresses to spread over on a loopback target; 1 forces a one-address run. */
  addresses?: number;
  /** The whole run stops sending after this many seconds (default DEFAULT_MAX_TIME_SECONDS). */
  maxTimeSeconds?: number;
  /** Per-answer deadline and body cap. */
  limits?: Partial<AnswerLimits>;
  /** "Not exercised" fails the run. */
  requireEvidence?: boolean;
  /** Discover and plan only: nothing but discovery is sent. */
  planOnly?: boolean;
  /** Findings accepted for now (--known FILE), each with a reason and an expiry date. */
  known?: AcceptEntry[];
  /** The day the run judges --known expiry by, YYYY-MM-DD (tests pin it; default today, UTC). */
  today?: string;
  log?: (line: string) => void;
  /** How the replay line names the target (`--base-url URL `, or "" for the bundled server). */
  replayTarget?: string;
  /**
   * The live line on a terminal: told where the run is at every change of phase and every second.
   * Without it the run logs "… N requests sent" every 15 s instead.
   */
  progress?: (state: ProgressState) => void;
  /** Sees every exchange as it comes, its whole body included (--record). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Stops the run from outside (SIGINT, SIGTERM: the reason names it): nothing more is sent, the
   * answers in flight are dropped, and what was received is judged and reported.
   */
  signal?: AbortSignal;
}

export interface RunResult {
  report: RunReport;
  plan?: Plan;
  /** Requests discovery sent (for --plan). */
  discovered: number;
}

// One address: 3 windows of 60 and a few more; the relations of issue 21 took the 10 added to 190,
// request-gate's raw requests (issue 37) the 8 added to 210.
const BUDGET = { "one-address": 218, spread: 4000 };
const SPREAD_RANDOM_RUNS = 40;
/** Spread runs keep a few addresses for the burst: one an earlier run used gives way to the next. */
const BURST_ADDRESSES = 6;
/**
 * A run from one address takes about 130 s; one that starts on a window already full (a readiness
 * probe is one request of it, an earlier run all of it) first waits up to two more windows: the
 * Retry-After of discovery's refusal, then the window emptying before the burst. The default
 * covers that worst case with room to spare, so that no readiness probe costs a check.
 */
export const DEFAULT_MAX_TIME_SECONDS = 300;

export async function runConformance(options: RunOptions): Promise<RunReport> {
  return (await run(options)).report;
}

/** Where the run's requests leave from, and the note that says so. */
interface RunAddresses {
  mode: Plan["mode"];
  pool: (string | undefined)[];
  burstFrom: (string | undefined)[];
  otherAddress: string | undefined;
  probeAddress: string | undefined;
  note: string;
}

/** What every phase of one run shares: the run's table of services, built once by `setUp`. */
interface RunContext {
  options: RunOptions;
  started: number;
  end: RunEnd;
  log: (line: string) => void;
  spec: Spec;
  registry: ReturnType<typeof defaultRegistry>;
  checks: Check[];
  selected: Set<string>;
  addresses: RunAddresses;
  specRate: { limit: number; windowSeconds: number };
  ctx: CheckContext;
  pacer: Pacer;
  diagnosis: RateDiagnosis;
  budget: number;
  timeline: TimelineRecorder;
  judge: Judge;
  progress: Progress;
  transport: Transport;
}

/** The report's timeline: when each request left and what came back, no body (reporters/html.ts). */
interface TimelineRecorder {
  points: TimelinePoint[];
  /** Each exchange's point and index: the plan's purposes and the findings are linked to them at the end. */
  pointOf: WeakMap<Exchange, TimelinePoint>;
  indexOf: WeakMap<Exchange, number>;
  onExchange(e: Exchange): void;
}

type RunDiscovery = Awaited<ReturnType<typeof discover>>;

export async function run(options: RunOptions): Promise<RunResult> {
  const r = await setUp(options);
  const ticker = startTicker(r);
  try {
    options.progress?.(r.progress.state());
    const repeated = repeatedPathPrefix(
      options.baseUrl,
      r.spec.operations.map((o) => o.path),
    );
    if (repeated) return { report: reportOf(r, { error: repeated }), discovered: 0 };
    const discovery = await discoverTarget(r);
    const discovered = discovery.exchanges.length;
    if (discovery.stop) return { report: reportOf(r, { error: discovery.stop }), discovered };
    adoptAdvertisedRate(r, discovery);
    const { plan, validCases } = planRun(r, discovery);
    if (options.planOnly) return { report: reportOf(r, {}), plan, discovered };
    r.log(
      `plan: ${plan.steps.length} requests, ${plan.groups.length} groups${plan.burst ? ", the burst first" : ""}, then exploration`,
    );
    const sender = new Sender(
      r.ctx,
      r.transport,
      r.judge,
      r.diagnosis,
      new Map(r.checks.map((c) => [c.name, c])),
      plan.budget,
      r.end,
    );
    r.progress.planned = plannedRequests(plan, r.transport.requests);
    const execution = await executePlan(r, plan, sender, discovery, validCases);
    judgeTheBurst(r, execution.burst);
    return { report: finalReport(r, plan, sender, execution), plan, discovered };
  } finally {
    clearInterval(ticker);
    closeAgents();
  }
}

/** The spec, the checks, the addresses and the services every phase uses. */
async function setUp(options: RunOptions): Promise<RunContext> {
  const started = Date.now();
  const end = new RunEnd(
    started + (options.maxTimeSeconds ?? DEFAULT_MAX_TIME_SECONDS) * 1000,
    options.signal,
  );
  const log = options.log ?? (() => {});
  const { spec, releases } = await judgedSpecs(options.specPath, options.rate);
  const { registry, checks } = chooseChecks(spec, options);
  const addresses = await chooseAddresses(options);
  const specRate = { limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds };
  const ctx: CheckContext = { spec, releases, rate: options.rate ?? specRate };
  const pacer = new Pacer(addresses.pool, ctx.rate.limit, ctx.rate.windowSeconds);
  // The per-IP probe asks from its own address whether the limit counts every address together.
  let transport: Transport | undefined;
  const probe = async () =>
    (await transport?.send(META, { address: addresses.probeAddress, raw: true, phase: "plan" }))?.status ===
    spec.rateLimit.status;
  const diagnosis = new RateDiagnosis(() => ctx.rate, log, addresses.mode === "spread" ? probe : undefined);
  const budget = options.budget ?? BUDGET[addresses.mode];
  const timeline = recordTimeline(started, options.onExchange);
  const judge = new Judge(
    ctx,
    checks,
    options.seed,
    options.baseUrl,
    options.replayTarget ?? `--base-url ${options.baseUrl} `,
  );
  const live = options.progress;
  const progress: Progress = new Progress(
    {
      sent: () => transport?.requests ?? 0,
      failures: () => [...judge.violations.values()].reduce((n, list) => n + list.length, 0),
      deadline: end.deadline,
    },
    () => live?.(progress.state()),
  );
  transport = new Transport(spec, options.baseUrl, pacer, diagnosis, {
    progress,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    bounds: { budget, end },
    onExchange: timeline.onExchange,
    seed: options.seed,
  });
  const selected = new Set(checks.map((c) => c.name));
  return {
    options,
    started,
    end,
    log,
    spec,
    registry,
    checks,
    selected,
    addresses,
    specRate,
    ctx,
    pacer,
    diagnosis,
    budget,
    timeline,
    judge,
    progress,
    transport,
  };
}

/**
 * Spread: the pool, then the burst's addresses (a used one gives way to the next), then the per-IP
 * one, and one the run keeps unused, to tell a used address from counting all addresses together.
 */
async function chooseAddresses(options: RunOptions): Promise<RunAddresses> {
  const spreadOver = options.addresses ?? 40;
  const spare = BURST_ADDRESSES + 2;
  const wanted = isLoopback(options.baseUrl) && spreadOver > 1 ? spreadOver + spare : 1;
  const addresses = await sourceAddresses(options.baseUrl, wanted);
  if (addresses.length <= spare)
    return {
      mode: "one-address",
      pool: [undefined],
      burstFrom: [undefined],
      otherAddress: undefined,
      probeAddress: undefined,
      note: "one source address: requests paced at the advertised rate, the first window spent as the 429 burst; per-IP counting not tested",
    };
  const pool = addresses.slice(0, -spare);
  const burstFrom = addresses.slice(-spare, -2);
  const [otherAddress, probeAddress] = addresses.slice(-2);
  return {
    mode: "spread",
    pool,
    burstFrom,
    otherAddress,
    probeAddress,
    note: `requests spread over ${pool.length} loopback source addresses (${pool[0]}…), burst from ${burstFrom[0]}…, per-IP check from ${otherAddress}`,
  };
}

function recordTimeline(started: number, onExchange: RunOptions["onExchange"]): TimelineRecorder {
  const t: TimelineRecorder = {
    points: [],
    pointOf: new WeakMap(),
    indexOf: new WeakMap(),
    onExchange: (e) => {
      const point = timelinePoint(e, started);
      t.pointOf.set(e, point);
      t.indexOf.set(e, t.points.length);
      t.points.push(point);
      onExchange?.(e);
    },
  };
  return t;
}

/** The live line every second on a terminal; else a plain line every 15 s (a countdown while waiting). */
function startTicker(r: RunContext): ReturnType<typeof setInterval> {
  const live = r.options.progress;
  const ticker = live
    ? setInterval(() => live(r.progress.state()), 1000)
    : setInterval(() => r.log(plainProgressLine(r.progress.state())), 15_000);
  ticker.unref();
  return ticker;
}

/** Phase 1: is it this API, its rate, its data. Discovery's answers are judged like the rest. */
async function discoverTarget(r: RunContext): Promise<RunDiscovery> {
  r.log(`discovering ${r.options.baseUrl}`);
  const discovery = await discover((req) => r.transport.send(req, { phase: "discovery" }));
  for (const e of discovery.exchanges) {
    r.judge.recordAll(e);
    releaseBody(e);
  }
  return discovery;
}

/** The rate the target advertises, where it is stricter than the spec's (unless --rate says otherwise). */
function adoptAdvertisedRate(r: RunContext, discovery: RunDiscovery): void {
  const { ctx, specRate } = r;
  if (!r.options.rate && discovery.metaRate) {
    ctx.rate = {
      limit: Math.min(specRate.limit, discovery.metaRate.limit),
      windowSeconds: Math.max(specRate.windowSeconds, discovery.metaRate.windowSeconds),
    };
    r.pacer.setRate(ctx.rate.limit, ctx.rate.windowSeconds);
  }
  r.log(`rate in force: ${ctx.rate.limit} requests per ${ctx.rate.windowSeconds} s per client IP`);
}

/** Phase 2: the requests to send, as data. */
function planRun(r: RunContext, discovery: RunDiscovery) {
  const { spec, options } = r;
  const account = options.account;
  const validCases = validCasesOf(candidatesByOperation(spec, discovery.vocabulary, account));
  const plan = buildPlan({
    spec,
    checks: r.checks,
    selected: r.selected,
    vocabulary: discovery.vocabulary,
    ...(account ? { account } : {}),
    mode: r.addresses.mode,
    rate: r.ctx.rate,
    budget: r.budget,
    seed: options.seed,
    ...(options.randomRuns !== undefined || r.addresses.mode === "spread"
      ? { randomRuns: options.randomRuns ?? SPREAD_RANDOM_RUNS }
      : {}),
    spent: r.transport.requests,
  });
  return { plan, validCases };
}

/** What the plan means to send, as the live line counts it (exploration as the budget allows). */
function plannedRequests(plan: Plan, spent: number): number {
  return Math.min(
    plan.budget,
    spent +
      plan.steps.filter((s) => !s.sentBy).length +
      requestsOf(plan.groups) +
      (plan.burst ? plan.rate.limit : 0) +
      plan.exploration.reduce((n, x) => n + x.runs, 0),
  );
}

/** Phase 3: the burst, the paced plan, fallbacks and exploration (runner/execute.ts). */
function executePlan(
  r: RunContext,
  plan: Plan,
  sender: Sender,
  discovery: RunDiscovery,
  validCases: ReturnType<typeof validCasesOf>,
): Promise<Execution> {
  const { spec, options } = r;
  const account = options.account;
  return execute({
    spec,
    plan,
    transport: r.transport,
    pacer: r.pacer,
    sender,
    judge: r.judge,
    checks: r.checks,
    pool: r.addresses.pool,
    burstFrom: r.addresses.burstFrom,
    otherAddress: r.addresses.otherAddress,
    discovery: discovery.exchanges,
    // A valid case to send over the limit; a secured operation without one, with invalid credentials.
    validCase: (operationId) => {
      const op = spec.operation(operationId);
      return (
        validCases(operationId)[0] ??
        (op.secured
          ? buildCase(op, {
              values: baseValues(op, discovery.vocabulary),
              credentials: "invalid",
              label: "over the limit",
            })
          : undefined)
      );
    },
    vocabulary: discovery.vocabulary,
    ...(account ? { account } : {}),
    end: r.end,
    skipSlow: options.skipSlow ?? false,
    log: r.log,
    progress: r.progress,
  });
}

/** Phase 4, the burst's judges: the 429 contract (rate-limit), and RateLimit-Reset against its timing. */
function judgeTheBurst(r: RunContext, burst: BurstRecord | undefined): void {
  if (!burst) return;
  for (const check of r.checks) {
    if (!check.judgeBurst) continue;
    r.judge.verdict(
      check,
      check.judgeBurst(r.ctx, {
        ...burst,
        countedTogether: r.diagnosis.countedTogether,
        unitCosts: r.transport.costs.costly(),
      }),
    );
  }
}

/** Phase 5: --known applied, then the report of a run that executed its plan (or was cut on the way). */
function finalReport(r: RunContext, plan: Plan, sender: Sender, execution: Execution): RunReport {
  const { options, end } = r;
  const known = applyKnown(
    r.judge,
    options.known ?? [],
    options.today ?? new Date().toISOString().slice(0, 10),
  );
  const stopped = sender.blocked();
  const cut = stopped && !end.stopped ? stopped : undefined;
  return reportOf(
    r,
    {
      notes: [...closingNotes(r, execution, cut), ...known.notes],
      ...(known.expired.length > 0 ? { expiredKnown: known.expired } : {}),
      ...(cut ? { cut: cutReason(cut, execution.burst) } : {}),
    },
    {
      plan,
      judge: r.judge,
      sender,
      account: !!options.account,
      selected: r.selected,
      failing: r.transport.failing,
      ...(execution.burst?.skipped ? { burstSkipped: execution.burst.skipped } : {}),
    },
  );
}

/** What the run explored, why it stopped early, what the window held at the start, what the limiter showed. */
function closingNotes(r: RunContext, execution: Execution, cut: string | undefined): string[] {
  const explored = [...execution.explored]
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${op} ${n}`)
    .join(", ");
  const usedAtStart = execution.burst?.usedAtStart;
  const summary = r.diagnosis.summary(r.transport.unexpected429);
  return [
    ...(explored ? [`random exploration: ${explored}`] : []),
    ...(cut ? [`stopped early: ${cut}`] : []),
    ...(usedAtStart
      ? [
          `the window of this address was not empty when the run began (${usedWords(usedAtStart)}): ${usedAtStart.waitedSeconds > 0 ? `the burst waited ${usedAtStart.waitedSeconds} s for it to empty` : "the burst counted them in and filled only the rest, with no wait"}`,
        ]
      : []),
    ...(summary ? [summary] : []),
  ];
}

/** The run's report from what it judged; `facts` once the plan ran, else what discovery left. */
function reportOf(
  r: RunContext,
  fields: Partial<RunReport> & { error?: string; cut?: string },
  facts?: Parameters<typeof checkResults>[1],
): RunReport {
  const { options, end, transport, judge, started } = r;
  const stopped = end.stopped ? end.reached() : undefined;
  const results = checkResults(r.registry.all(), {
    ...(facts ?? { account: !!options.account, selected: r.selected, failing: transport.failing, judge }),
    ...(stopped ? { stopped } : {}),
  });
  // Stopped from outside: not a target the run could not judge, but a run cut short.
  const error = stopped ? undefined : fields.error;
  if (facts?.sender) notePurposes(r.timeline.pointOf, facts.sender);
  linkFindingsToTimeline(r, results);
  const open = results.flatMap((c) => c.violations.filter((v) => !v.known));
  const causes = error ? [] : findCauses(r.spec, open, judge.census);
  return {
    seed: options.seed,
    baseUrl: options.baseUrl,
    mode: r.addresses.mode,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: transport.requests,
    rate: r.ctx.rate,
    timeline: r.timeline.points,
    unexpected429: transport.unexpected429,
    // Not judged: what discovery's answers showed of a target that is not this API is no finding.
    checks: error ? results.map(unjudged) : results,
    causes,
    notes: [r.addresses.note, ...r.diagnosis.notes, ...(fields.notes ?? [])],
    requireEvidence: options.requireEvidence ?? false,
    ...(error ? { error } : {}),
    ...(stopped ? { stopped } : {}),
    ...(fields.expiredKnown ? { expiredKnown: fields.expiredKnown } : {}),
    // A stopped run judged only part of the plan: it cannot pass, whatever that part showed.
    ...verdictOf(results, {
      ...(error ? { error } : {}),
      expiredKnown: fields.expiredKnown?.length ?? 0,
      ...(stopped ? { stopped } : {}),
      ...(fields.cut ? { cut: fields.cut } : {}),
      requireEvidence: options.requireEvidence ?? false,
    }),
  };
}

/** Each violation points at its exchange's place in the timeline. */
function linkFindingsToTimeline(r: RunContext, results: ReturnType<typeof checkResults>): void {
  for (const v of results.flatMap((c) => c.violations)) {
    const source = r.judge.sources.get(v);
    const index = source ? r.timeline.indexOf.get(source) : undefined;
    if (index !== undefined) v.exchange = index;
  }
}

function unjudged(c: ReturnType<typeof checkResults>[number]): ReturnType<typeof checkResults>[number] {
  return c.status === "skipped"
    ? c
    : { ...c, status: "not-exercised", reason: "the run stopped before judging", violations: [] };
}

/**
 * Why the run judged less than its plan, the root first: a window already used when the run began
 * (a readiness probe, an earlier run) cost it a window's wait before --max-time or the budget cut it.
 */
function cutReason(stopped: string, burst: BurstRecord | undefined): string {
  const used = burst?.usedAtStart;
  return used
    ? `the window of this address was not empty when the run began (${usedWords(used)}): ${used.waitedSeconds > 0 ? `the run waited ${used.waitedSeconds} s for it, then stopped early` : "the run stopped early"}: ${stopped}`
    : `the run stopped early: ${stopped}`;
}

function timelinePoint(e: Exchange, started: number): TimelinePoint {
  const at = Math.max(0, Math.round(e.sentAt * 1000 - started));
  return {
    at,
    ms: Math.max(0, Math.round(e.receivedAt * 1000 - started) - at),
    status: e.status,
    ...(e.phase ? { phase: e.phase } : {}),
    ...(e.request.operationId ? { operation: e.request.operationId } : {}),
    ...(e.failure ? { failure: e.failure.kind } : {}),
    purpose: defaultPurpose(e),
    request: requestLine(e),
  };
}

/**
 * The registry and the checks the options select; an unknown name in --only, --skip or a --known
 * entry throws UnknownCheckError (a misspelt --known check would otherwise match nothing and be
 * reported only as "can go").
 */
function chooseChecks(spec: Spec, options: Pick<RunOptions, "only" | "skip" | "known">) {
  const registry = defaultRegistry(spec);
  const checks = selectChecks(registry, options.only, options.skip);
  for (const entry of options.known ?? [])
    if (
      entry.match.check !== undefined &&
      !registry.get(entry.match.check) &&
      !isLedgerCheck(entry.match.check)
    )
      throw new UnknownCheckError(entry.match.check);
  return { registry, checks };
}

/** Check names are usage errors: the CLI asks before it starts a server or sends anything. */
export async function validateSelection(
  options: Pick<RunOptions, "only" | "skip" | "known" | "specPath">,
): Promise<void> {
  chooseChecks(await loadSpec(options.specPath), options);
}

/**
 * Marks the violations a --known entry accepts (they are shown, not failing); returns the entries
 * past their date (they fail the run) and notes on those nothing matched any more. Entries naming
 * a ledger check are matched once the ledger has judged (ledger/report.ts), not here.
 */
function applyKnown(
  judge: Judge,
  entries: AcceptEntry[],
  today: string,
): { expired: string[]; notes: string[] } {
  const all = [...judge.violations.values()].flat();
  const sorted = applyAcceptList(all, entries, knownMatches, today);
  for (const { finding, entry } of sorted.accepted)
    finding.known = { reason: entry.reason, expires: entry.expires };
  return {
    expired: sorted.expired.map(describeEntry),
    notes: [
      ...sorted.expired.map((e) => `known finding expired, so the run fails: ${describeEntry(e)}`),
      ...sorted.unused.filter((e) => !isLedgerCheck(e.match.check)).map(unusedNote),
    ],
  };
}

/** Fields a --known entry matches on. */
export const KNOWN_KEYS = ["check", "operation", "code"] as const;
