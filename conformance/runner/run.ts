/**
 * One conformance run against a base URL: discover, explore every operation (fixed cases,
 * then random ones, shrinking failures), run the probing checks, and the 429 burst last.
 */
import { refusingRules } from "../../src/rules/evaluate.ts";
import { loadSpec, specFromDocument } from "../../src/spec/load.ts";
import { frozenReleases } from "../../src/spec/release.ts";
import { parseRequest } from "../../src/spec/request.ts";
import { boundaryCases } from "../arbitraries/boundaries.ts";
import { type Account, requestArbitrary } from "../arbitraries/requests.ts";
import { ruleCases } from "../arbitraries/rule-cases.ts";
import { FALLBACK_VOCABULARY } from "../arbitraries/vocabulary.ts";
import { isLoopback, sourceAddresses } from "../http/addresses.ts";
import { closeAgents } from "../http/client.ts";
import { Pacer } from "../http/pacer.ts";
import { defaultRegistry, selectChecks } from "../registry.ts";
import type { Check, CheckContext, Exchange, ProbeContext, RequestCase } from "../types.ts";
import { DISCOVERY, learn } from "./discover.ts";
import { explore } from "./explore.ts";
import { Recorder, type RunReport } from "./results.ts";
import { sleep, Transport } from "./transport.ts";

export interface RunOptions {
  baseUrl: string;
  seed: number;
  only?: string[];
  skip?: string[];
  /** Most requests the exploration may spend (the burst and probes come on top). */
  budget?: number;
  /** Overrides the advertised rate (--rate N/MIN). */
  rate?: { limit: number; windowSeconds: number };
  skipSlow?: boolean;
  specPath?: string;
  account?: Account;
  /** Random requests per operation after the fixed cases. */
  randomRuns?: number;
  /** Source addresses to spread over on a loopback target. */
  addresses?: number;
  log?: (line: string) => void;
  /** How the replay line names the target (`--base-url URL `, or "" for the bundled server). */
  replayTarget?: string;
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const spec = await loadSpec(options.specPath);
  const releases = await Promise.all(
    (await frozenReleases()).map(async (r) => ({
      version: r.version,
      spec: await specFromDocument(r.raw, r.path),
    })),
  );
  const registry = defaultRegistry(spec);
  const selected = selectChecks(registry, options.only, options.skip);
  const loopback = isLoopback(options.baseUrl);
  const notes: string[] = [];

  // Two addresses are kept apart for the burst (the refused IP and the still-served one).
  const addresses = await sourceAddresses(options.baseUrl, loopback ? (options.addresses ?? 40) + 2 : 1);
  const pool = addresses.length > 2 ? addresses.slice(0, -2) : addresses;
  const reserved = addresses.length > 2 ? addresses.slice(-2) : [undefined];
  if (addresses.length === 1)
    notes.push("one source address: requests paced at the advertised rate; per-IP counting not tested");
  else
    notes.push(
      `requests spread over ${pool.length} loopback source addresses (${pool[0]}…), burst from ${reserved.join(" and ")}`,
    );

  const specRate = { limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds };
  const ctx: CheckContext = { spec, releases, rate: options.rate ?? specRate };
  const pacer = new Pacer(pool, ctx.rate.limit, ctx.rate.windowSeconds);
  const transport = new Transport(spec, options.baseUrl, pacer, log);
  const replayTarget = options.replayTarget ?? `--base-url ${options.baseUrl} `;
  const recorder = new Recorder(ctx, selected, options.seed, replayTarget);

  try {
    // Discovery: the target's data and its advertised rate (the stricter of spec and meta wins).
    log(`discovering ${options.baseUrl}`);
    const found: Exchange[] = [];
    for (const r of DISCOVERY) found.push(await transport.send(r));
    const { vocabulary, metaRate } = learn(found);
    if (!options.rate && metaRate) {
      ctx.rate = {
        limit: Math.min(specRate.limit, metaRate.limit),
        windowSeconds: Math.max(specRate.windowSeconds, metaRate.windowSeconds),
      };
    }
    pacer.setRate(ctx.rate.limit, ctx.rate.windowSeconds);
    for (const e of found) recorder.recordAll(e);
    if (vocabulary.words === FALLBACK_VOCABULARY.words)
      notes.push("no data found on the target: built-in vocabulary used");
    log(`rate in force: ${ctx.rate.limit} requests per ${ctx.rate.windowSeconds} s per client IP`);

    const account = options.account;
    const examplesOf = new Map<string, RequestCase[]>();
    for (const op of spec.operations) {
      // Boundaries first, then the rule-planned cases, then the enum sweeps (the first a small budget cuts).
      const { first, sweeps } = boundaryCases(op, vocabulary, account);
      examplesOf.set(op.operationId, [...first, ...ruleCases(spec, op, vocabulary, account), ...sweeps]);
    }
    const validCases = (operationId: string): RequestCase[] => {
      const op = spec.operation(operationId);
      return (examplesOf.get(operationId) ?? []).filter((c) => {
        if (op.secured && c.credentials !== "valid") return false;
        const parsed = parseRequest(
          spec,
          op,
          new URLSearchParams(c.query),
          spec.match(c.pathname)?.pathParams,
        );
        return (
          parsed.errors.length === 0 &&
          refusingRules(spec, op, parsed).length === 0 &&
          !c.pathname.includes("%")
        );
      });
    };
    const budget = options.budget ?? (addresses.length > 1 ? 4000 : 300);
    const randomRuns = options.randomRuns ?? (addresses.length > 1 ? 40 : 6);

    const probeContext = (check: Check): ProbeContext => {
      const result = recorder.results.get(check.name);
      const counted = async (exchange: Promise<Exchange>) => {
        if (result) result.requests++;
        const e = await exchange;
        recorder.recordAll(e);
        return e;
      };
      return {
        ...ctx,
        send: (request, o) => counted(transport.send(request, o?.address)),
        sendRaw: (request, address) => counted(transport.sendRaw(request, address)),
        reserved,
        waitIdle: async (address) => {
          const ms = pacer.idleIn(address);
          if (ms > 0)
            log(
              `waiting ${(ms / 1000).toFixed(0)} s for ${address ?? "the address"} to leave the rate window`,
            );
          await sleep(ms);
        },
        validCases,
        ...(account ? { account } : {}),
        skipSlow: options.skipSlow ?? false,
        sleep,
        log,
      };
    };
    const runProbe = async (check: Check) => {
      if (!check.probe) return;
      const outcome = await check.probe(probeContext(check));
      const result = recorder.results.get(check.name);
      if (result) {
        result.cases += outcome.cases;
        if (outcome.skipped) result.note = outcome.skipped;
      }
      for (const { finding, exchange } of outcome.findings) recorder.record(check, finding, exchange);
    };

    log(`exploring ${spec.operations.length} operations (seed ${options.seed})`);
    const env = {
      recorder,
      cached: (r: RequestCase) => transport.cached(r),
      exhausted: () => transport.requests >= budget,
    };
    const main = selected.filter((c) => c.phase !== "last");
    // A paced run can sit for a while waiting for rate windows: say so now and then.
    const progress = setInterval(() => log(`  … ${transport.requests} requests sent`), 10_000);
    progress.unref();
    await Promise.all([
      ...spec.operations.map(async (op, i) => {
        const examples = examplesOf.get(op.operationId) ?? [];
        const arbitrary = requestArbitrary(op, vocabulary, account);
        await explore(env, op, examples, arbitrary, (options.seed + i * 7919) | 0, randomRuns);
        log(`  ${op.operationId}: explored (${transport.requests} requests so far)`);
      }),
      ...main.map(runProbe),
    ]).finally(() => clearInterval(progress));
    // Findings fast-check did not get to shrink (round cap, budget) are still reported, unshrunk.
    for (const e of await transport.cachedExchanges()) recorder.recordAll(e);
    if (transport.requests >= budget)
      notes.push(`request budget of ${budget} reached: exploration stopped early`);

    for (const check of selected.filter((c) => c.phase === "last")) {
      log(`running ${check.name} (last)`);
      await runProbe(check);
    }
  } finally {
    closeAgents();
  }

  const selectedNames = new Set(selected.map((c) => c.name));
  const checks = [...recorder.results.values()];
  for (const c of registry.all()) {
    if (!selectedNames.has(c.name)) {
      checks.push({
        name: c.name,
        title: c.title,
        verifies: c.verifies,
        source: c.source,
        severity: c.severity,
        status: "skipped",
        cases: 0,
        requests: 0,
        violations: [],
        note: "not selected",
      });
    }
  }
  for (const r of checks) {
    if (r.status === "pass" && r.cases === 0) {
      r.status = "skipped";
      r.note = r.note ?? "no applicable case (e.g. needs an account for the key-protected streams)";
    }
  }
  const order = new Map(registry.all().map((c, i) => [c.name, i]));
  checks.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  if (transport.unexpected429 > 0)
    notes.push(`${transport.unexpected429} unexpected 429 answers outside the burst`);
  return {
    seed: options.seed,
    baseUrl: options.baseUrl,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: transport.requests,
    unexpected429: transport.unexpected429,
    checks,
    notes,
    passed: checks.every((c) => c.status !== "fail"),
  };
}
