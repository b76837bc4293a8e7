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
import type { BurstRecord, CheckContext, Exchange } from "../types.ts";
import { META, usedWords } from "./burst.ts";
import { findCauses } from "./causes.ts";
import { RateDiagnosis } from "./diagnosis.ts";
import { discover, repeatedPathPrefix } from "./discover.ts";
import { releaseBody } from "./exchange.ts";
import { execute } from "./execute.ts";
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

export async function run(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const end = new RunEnd(
    started + (options.maxTimeSeconds ?? DEFAULT_MAX_TIME_SECONDS) * 1000,
    options.signal,
  );
  const log = options.log ?? (() => {});
  const { spec, releases } = await judgedSpecs(options.specPath, options.rate);
  const { registry, checks } = chooseChecks(spec, options);
  const selected = new Set(checks.map((c) => c.name));
  // Spread: the pool, then the burst's addresses (a used one gives way to the next), then the per-IP one.
  const spreadOver = options.addresses ?? 40;
  // ... and one the run keeps unused, to tell a used address from counting all addresses together.
  const spare = BURST_ADDRESSES + 2;
  const wanted = isLoopback(options.baseUrl) && spreadOver > 1 ? spreadOver + spare : 1;
  const addresses = await sourceAddresses(options.baseUrl, wanted);
  const mode: Plan["mode"] = addresses.length > spare ? "spread" : "one-address";
  const pool = mode === "spread" ? addresses.slice(0, -spare) : [undefined];
  const burstFrom = mode === "spread" ? addresses.slice(-spare, -2) : [undefined];
  const [otherAddress, probeAddress] = mode === "spread" ? addresses.slice(-2) : [undefined, undefined];
  const notes = [
    mode === "spread"
      ? `requests spread over ${pool.length} loopback source addresses (${pool[0]}…), burst from ${burstFrom[0]}…, per-IP check from ${otherAddress}`
      : "one source address: requests paced at the advertised rate, the first window spent as the 429 burst; per-IP counting not tested",
  ];
  const specRate = { limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds };
  const ctx: CheckContext = { spec, releases, rate: options.rate ?? specRate };
  const pacer = new Pacer(pool, ctx.rate.limit, ctx.rate.windowSeconds);
  let transport: Transport | undefined;
  const probe = async () =>
    (await transport?.send(META, { address: probeAddress, raw: true, phase: "plan" }))?.status ===
    spec.rateLimit.status;
  const diagnosis = new RateDiagnosis(() => ctx.rate, log, mode === "spread" ? probe : undefined);
  const budget = options.budget ?? BUDGET[mode];
  // The report's timeline: when each request left and what came back, no body (reporters/html.ts).
  const timeline: TimelinePoint[] = [];
  // Each exchange's point and index: the plan's purposes and the findings are linked to them at the end.
  const points = new WeakMap<Exchange, TimelinePoint>();
  const indexes = new WeakMap<Exchange, number>();
  const onExchange = (e: Exchange) => {
    const point = timelinePoint(e, started);
    points.set(e, point);
    indexes.set(e, timeline.length);
    timeline.push(point);
    options.onExchange?.(e);
  };
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
    onExchange,
    seed: options.seed,
  });
  const judge = new Judge(
    ctx,
    checks,
    options.seed,
    options.baseUrl,
    options.replayTarget ?? `--base-url ${options.baseUrl} `,
  );
  const report = (
    fields: Partial<RunReport> & { error?: string; cut?: string },
    facts?: Parameters<typeof checkResults>[1],
  ): RunReport => {
    const stopped = end.stopped ? end.reached() : undefined;
    const results = checkResults(registry.all(), {
      ...(facts ?? { account: !!options.account, selected, failing: transport.failing, judge }),
      ...(stopped ? { stopped } : {}),
    });
    // Stopped from outside: not a target the run could not judge, but a run cut short.
    const error = stopped ? undefined : fields.error;
    if (facts?.sender) notePurposes(points, facts.sender);
    for (const v of results.flatMap((c) => c.violations)) {
      const source = judge.sources.get(v);
      const index = source ? indexes.get(source) : undefined;
      if (index !== undefined) v.exchange = index;
    }
    const open = results.flatMap((c) => c.violations.filter((v) => !v.known));
    const causes = error ? [] : findCauses(spec, open, judge.census);
    return {
      seed: options.seed,
      baseUrl: options.baseUrl,
      mode,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      requests: transport.requests,
      rate: ctx.rate,
      timeline,
      unexpected429: transport.unexpected429,
      // Not judged: what discovery's answers showed of a target that is not this API is no finding.
      checks: error
        ? results.map((c) =>
            c.status === "skipped"
              ? c
              : { ...c, status: "not-exercised", reason: "the run stopped before judging", violations: [] },
          )
        : results,
      causes,
      notes: [...notes, ...diagnosis.notes, ...(fields.notes ?? [])],
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
  };

  // The live line every second on a terminal; else a plain line every 15 s (a countdown while waiting).
  const ticker = live
    ? setInterval(() => live(progress.state()), 1000)
    : setInterval(() => log(plainProgressLine(progress.state())), 15_000);
  ticker.unref();
  try {
    live?.(progress.state());
    const repeated = repeatedPathPrefix(
      options.baseUrl,
      spec.operations.map((o) => o.path),
    );
    if (repeated) return { report: report({ error: repeated }), discovered: 0 };
    log(`discovering ${options.baseUrl}`);
    const discovery = await discover((r) => transport.send(r, { phase: "discovery" }));
    for (const e of discovery.exchanges) {
      judge.recordAll(e);
      releaseBody(e);
    }
    if (discovery.stop)
      return { report: report({ error: discovery.stop }), discovered: discovery.exchanges.length };
    if (!options.rate && discovery.metaRate) {
      ctx.rate = {
        limit: Math.min(specRate.limit, discovery.metaRate.limit),
        windowSeconds: Math.max(specRate.windowSeconds, discovery.metaRate.windowSeconds),
      };
      pacer.setRate(ctx.rate.limit, ctx.rate.windowSeconds);
    }
    log(`rate in force: ${ctx.rate.limit} requests per ${ctx.rate.windowSeconds} s per client IP`);
    const account = options.account;
    const byOp = candidatesByOperation(spec, discovery.vocabulary, account);
    const validCases = validCasesOf(byOp);
    const plan = buildPlan({
      spec,
      checks,
      selected,
      vocabulary: discovery.vocabulary,
      ...(account ? { account } : {}),
      mode,
      rate: ctx.rate,
      budget,
      seed: options.seed,
      ...(options.randomRuns !== undefined || mode === "spread"
        ? { randomRuns: options.randomRuns ?? SPREAD_RANDOM_RUNS }
        : {}),
      spent: transport.requests,
    });
    if (options.planOnly) return { report: report({}), plan, discovered: discovery.exchanges.length };
    log(
      `plan: ${plan.steps.length} requests, ${plan.groups.length} groups${plan.burst ? ", the burst first" : ""}, then exploration`,
    );
    const sender = new Sender(
      ctx,
      transport,
      judge,
      diagnosis,
      new Map(checks.map((c) => [c.name, c])),
      plan.budget,
      end,
    );
    // What the plan means to send, as the live line counts it (exploration as the budget allows).
    progress.planned = Math.min(
      plan.budget,
      transport.requests +
        plan.steps.filter((s) => !s.sentBy).length +
        requestsOf(plan.groups) +
        (plan.burst ? plan.rate.limit : 0) +
        plan.exploration.reduce((n, x) => n + x.runs, 0),
    );
    const execution = await execute({
      spec,
      plan,
      transport,
      pacer,
      sender,
      judge,
      checks,
      pool,
      burstFrom,
      otherAddress,
      discovery: discovery.exchanges,
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
      end,
      skipSlow: options.skipSlow ?? false,
      log,
      progress,
    });
    // The burst's judges: the 429 contract (rate-limit), and RateLimit-Reset against its timing.
    for (const check of execution.burst ? checks : []) {
      if (!check.judgeBurst || !execution.burst) continue;
      judge.verdict(
        check,
        check.judgeBurst(ctx, {
          ...execution.burst,
          countedTogether: diagnosis.countedTogether,
          unitCosts: transport.costs.costly(),
        }),
      );
    }
    const known = applyKnown(
      judge,
      options.known ?? [],
      options.today ?? new Date().toISOString().slice(0, 10),
    );
    const stopped = sender.blocked();
    const explored = [...execution.explored]
      .filter(([, n]) => n > 0)
      .map(([op, n]) => `${op} ${n}`)
      .join(", ");
    return {
      report: report(
        {
          notes: [
            ...(explored ? [`random exploration: ${explored}`] : []),
            ...(stopped && !end.stopped ? [`stopped early: ${stopped}`] : []),
            ...(execution.burst?.usedAtStart
              ? [
                  `the window of this address was not empty when the run began (${usedWords(execution.burst.usedAtStart)}): ${execution.burst.usedAtStart.waitedSeconds > 0 ? `the burst waited ${execution.burst.usedAtStart.waitedSeconds} s for it to empty` : "the burst counted them in and filled only the rest, with no wait"}`,
                ]
              : []),
            ...(diagnosis.summary(transport.unexpected429)
              ? [diagnosis.summary(transport.unexpected429) as string]
              : []),
            ...known.notes,
          ],
          ...(known.expired.length > 0 ? { expiredKnown: known.expired } : {}),
          ...(stopped && !end.stopped ? { cut: cutReason(stopped, execution.burst) } : {}),
        },
        {
          plan,
          judge,
          sender,
          account: !!account,
          selected,
          failing: transport.failing,
          ...(execution.burst?.skipped ? { burstSkipped: execution.burst.skipped } : {}),
        },
      ),
      plan,
      discovered: discovery.exchanges.length,
    };
  } finally {
    clearInterval(ticker);
    closeAgents();
  }
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
