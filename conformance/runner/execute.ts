/**
 * Phase 3, execute: sends the plan. With the burst planned, the burst address's first window is
 * spent on the plan's own requests (runner/burst.ts); everything else goes paced, a few lanes at
 * a time: in a one-address run after the burst and its wait, in a spread run beside it from the
 * other addresses. Then the fallbacks of rules still without evidence, the shrinking of what the
 * plan found, and random exploration as the budget and --max-time allow.
 */

import type { Spec } from "../../src/spec/spec.ts";
import type { Account } from "../arbitraries/requests.ts";
import { requestArbitrary } from "../arbitraries/requests.ts";
import type { Vocabulary } from "../arbitraries/vocabulary.ts";
import type { Pacer, Slot } from "../http/pacer.ts";
import type { BurstRecord, Check, Exchange, PlannedGroup, RequestCase } from "../types.ts";
import { META, runBurst } from "./burst.ts";
import { releaseBody } from "./exchange.ts";
import { dropEntries, explore } from "./explore.ts";
import type { Judge } from "./judge.ts";
import { isPreflightGroup, type Plan, type PlanStep } from "./plan.ts";
import type { Progress } from "./progress.ts";
import { countedRequests, type Item, itemOperation, type Sender } from "./sender.ts";
import type { RunEnd } from "./stop.ts";
import { sleep, type Transport } from "./transport.ts";

export interface ExecEnv {
  spec: Spec;
  plan: Plan;
  transport: Transport;
  pacer: Pacer;
  sender: Sender;
  judge: Judge;
  checks: Check[];
  /** Addresses of the paced requests; the burst's own (in order of preference); one for the per-IP check. */
  pool: (string | undefined)[];
  burstFrom: (string | undefined)[];
  otherAddress: string | undefined;
  /** Requests discovery sent, in the burst address's window when that is the only address. */
  discovery: Exchange[];
  validCase(operationId: string): RequestCase | undefined;
  vocabulary: Vocabulary;
  account?: Account;
  end: RunEnd;
  skipSlow: boolean;
  log(line: string): void;
  /** The live line's phase (burst, plan, fallbacks, exploration). */
  progress?: Progress;
}

export interface Execution {
  burst?: BurstRecord;
  /** Distinct random requests asked per operation (answered from the cache when asked again). */
  explored: Map<string, number>;
}

const LANES = { "one-address": 4, spread: 8 };
/** Rounds of fallbacks for rules still without evidence. */
const FALLBACK_ROUNDS = 2;

const isPreflights = (item: Item) => item.kind === "group" && isPreflightGroup(item.group);

/** The plan's items in sending order: groups first (small, and evidence of their rules), then steps. */
function queueOf(plan: Plan): Item[] {
  return [
    ...plan.groups.map((group) => ({ kind: "group" as const, group })),
    ...plan.steps.filter((step) => !step.sentBy).map((step) => ({ kind: "step" as const, step })),
  ];
}

/** Reserves `n` slots of one pool address at once, so that no other lane takes them meanwhile; undefined when blocked. */
async function reserve(env: ExecEnv, n: number): Promise<Slot[] | undefined> {
  for (;;) {
    if (env.sender.blocked()) return undefined;
    const i = env.pool.findIndex((a) => env.pacer.free(a) >= n);
    if (i >= 0) return Array.from({ length: n }, () => env.pacer.take(env.pool[i]));
    await sleep(250);
  }
}

async function paced(env: ExecEnv, queue: Item[]): Promise<void> {
  const lane = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      if (env.sender.blocked()) {
        queue.unshift(item);
        return;
      }
      if (item.kind === "step") {
        await env.sender.step(item.step, { phase: "plan" });
        continue;
      }
      // Back to back from one address: a comparison split across a rate window would compare
      // answers minutes apart.
      const slots = await reserve(env, countedRequests(item));
      if (slots) await env.sender.group(item.group, { phase: "plan", address: slots[0]?.address }, slots);
      else env.sender.unsentGroups.set(item.group, env.sender.blocked() ?? "not sent");
    }
  };
  await Promise.all(Array.from({ length: LANES[env.plan.mode] }, lane));
}

/** Keeps why an item of the plan was not sent (the report's reason for the checks it was for). */
function unsent(env: ExecEnv, item: Item, why: string): void {
  if (item.kind === "step") env.sender.unsent.set(item.step, why);
  else env.sender.unsentGroups.set(item.group, why);
}

/**
 * Checks still without an informative case: their fallback steps and groups, one round at a time.
 * Those the run can no longer send (--max-time, the budget) are kept as unsent, and said so: a cut
 * run announces nothing it will not send.
 */
async function fallbacks(env: ExecEnv): Promise<void> {
  const without = (check: string) => (env.judge.evidence.get(check)?.informative ?? 1) === 0;
  const roundOf = (round: number): Item[] => [
    ...Object.entries(env.plan.fallbacks).flatMap(([goal, steps]) =>
      steps[round] && without(goal) ? [{ kind: "step" as const, step: steps[round] as PlanStep }] : [],
    ),
    ...Object.entries(env.plan.fallbackGroups).flatMap(([check, groups]) =>
      groups[round] && without(check)
        ? [{ kind: "group" as const, group: groups[round] as PlannedGroup }]
        : [],
    ),
  ];
  for (let round = 0; round < FALLBACK_ROUNDS; round++) {
    const items = roundOf(round);
    if (items.length === 0) return;
    const blocked = env.sender.blocked();
    if (blocked) {
      // The later rounds would go only if this one found nothing: they are not counted as kept back.
      for (const item of items) unsent(env, item, blocked);
      env.log(
        `fallbacks: ${items.length} requests or groups for checks without evidence not sent (${blocked})`,
      );
      return;
    }
    env.log(`fallbacks: ${items.length} requests or groups for checks without evidence yet`);
    env.progress?.enter("fallbacks");
    await paced(env, items);
    // What the lanes left when the run was cut on the way.
    for (const item of items.splice(0))
      unsent(env, item, env.sender.blocked(itemOperation(item)) ?? "not sent");
  }
}

/** Findings of the plan's requests, each shrunk to the fewest query entries that still show it. */
async function shrinkAndRecord(env: ExecEnv): Promise<void> {
  const exploreEnv = exploreEnvOf(env, undefined);
  const seen = new Set<string>();
  for (const { judged, exchange } of env.sender.pending.splice(0)) {
    if (seen.has(judged.key) || env.judge.has(judged.key)) continue;
    seen.add(judged.key);
    const minimal =
      exchange.request.query.length > 1 ? await dropEntries(exploreEnv, exchange, judged.key) : exchange;
    env.judge.record(judged.check, judged.finding, minimal);
  }
}

function exploreEnvOf(env: ExecEnv, operationId: string | undefined, asked = new Set<string>()) {
  return {
    judge: env.judge,
    cached: async (request: RequestCase) => {
      asked.add(JSON.stringify([request.pathname, request.query, request.headers]));
      const exchange = await env.transport.cached(request, "explore");
      env.judge.judge(exchange);
      releaseBody(exchange);
      return exchange;
    },
    exhausted: () => env.sender.blocked(operationId) !== undefined,
  };
}

/** The preflights the burst sends first, taken out of the queue: counted, they would make the limit arrive early. */
function takePreflights(plan: Plan, queue: Item[]): Item[] {
  const preflights = plan.burst ? queue.filter(isPreflights) : [];
  for (const item of preflights) queue.splice(queue.indexOf(item), 1);
  return preflights;
}

/**
 * How the burst takes the queue's items, up to `max` counted requests each. The burst counts its
 * window exactly: a comparison, which may be sent twice, waits for the paced phase. Its window takes
 * the operations in proportion to 1, 3, 5… (their order in the spec), so that their counts differ and
 * when refusals begin shows which one costs more than a unit even where no answer carries
 * RateLimit-Remaining.
 */
function burstTaker(env: ExecEnv, queue: Item[]): (max: number) => Item | undefined {
  const weight = new Map(env.spec.operations.map((op, n) => [op.operationId, 2 * n + 1]));
  const takenBy = new Map<string, number>();
  const share = (item: Item) => {
    const op = itemOperation(item) ?? "";
    return ((takenBy.get(op) ?? 0) + 1) / (weight.get(op) ?? 1);
  };
  return (max) => {
    let best = -1;
    for (const [i, item] of queue.entries()) {
      if (countedRequests(item) > max || (item.kind === "group" && item.group.kind === "compare")) continue;
      // Raw requests wait for the paced phase too: a component in front may answer them uncounted.
      if (item.kind === "group" && item.group.requests.some((r) => r.wire)) continue;
      if (env.sender.blocked(itemOperation(item))) continue;
      if (best < 0 || share(item) < share(queue[best] as Item)) best = i;
    }
    if (best < 0) return undefined;
    const [item] = queue.splice(best, 1) as [Item];
    const op = itemOperation(item) ?? "";
    takenBy.set(op, (takenBy.get(op) ?? 0) + 1);
    return item;
  };
}

/**
 * The burst (when planned) and the paced plan: in a one-address run the paced requests wait for
 * the burst and its wait; in a spread run they go beside it.
 */
async function burstAndPlan(env: ExecEnv, queue: Item[]): Promise<BurstRecord | undefined> {
  const { plan, spec } = env;
  const preflights = takePreflights(plan, queue);
  const take = burstTaker(env, queue);
  env.progress?.enter(plan.burst ? "burst" : "plan");
  const burst = plan.burst
    ? runBurst({
        spec,
        pacer: env.pacer,
        sender: env.sender,
        rate: plan.rate,
        addresses: env.burstFrom,
        other: env.otherAddress,
        initial: plan.mode === "one-address" ? env.discovery : [],
        first: preflights,
        take,
        validCase: env.validCase,
        // One address: the next step of the plan is the one that must be served again.
        afterWait: async (how) => {
          const next = plan.mode === "one-address" ? take(1) : undefined;
          return next ? (await env.sender.item(next, how))[0] : env.sender.request(META, how);
        },
        skipSlow: env.skipSlow,
        end: env.end,
        log: env.log,
        ...(env.progress ? { progress: env.progress } : {}),
      })
    : undefined;
  if (plan.mode !== "one-address") return (await Promise.all([burst, paced(env, queue)]))[0];
  const record = await burst;
  env.progress?.enter("plan");
  await paced(env, queue);
  return record;
}

/** Plan steps the limiter refused during the burst gave no evidence: they go again, paced. */
async function resendRefused(env: ExecEnv): Promise<void> {
  const refused = [...env.sender.sent]
    .filter(([, e]) => e.status === env.spec.rateLimit.status)
    .map(([step]) => step);
  for (const step of refused) env.sender.sent.delete(step);
  env.progress?.enter("plan");
  await paced(
    env,
    refused.map((step) => ({ kind: "step", step })),
  );
}

/** Random exploration of each operation; returns the distinct requests asked per operation. */
async function exploreAll(env: ExecEnv): Promise<Map<string, number>> {
  const { plan, spec } = env;
  const explored = new Map<string, number>();
  if (plan.exploration.some((x) => x.runs > 0) && !env.sender.blocked())
    env.log(`exploring: ${plan.exploration.map((x) => `${x.operationId} ${x.runs}`).join(", ")}`);
  env.progress?.enter("exploration");
  await Promise.all(
    plan.exploration.map(async ({ operationId, runs, seed }) => {
      const op = spec.operation(operationId);
      const asked = new Set<string>();
      await explore(
        exploreEnvOf(env, operationId, asked),
        op,
        requestArbitrary(op, env.vocabulary, env.account),
        seed,
        runs,
      );
      explored.set(operationId, asked.size);
    }),
  );
  return explored;
}

export async function execute(env: ExecEnv): Promise<Execution> {
  const queue = queueOf(env.plan);
  const burst = await burstAndPlan(env, queue);
  await resendRefused(env);
  await fallbacks(env);
  for (const item of queue.splice(0))
    unsent(env, item, env.sender.blocked(itemOperation(item)) ?? "not sent");
  await shrinkAndRecord(env);
  const explored = await exploreAll(env);
  // Findings fast-check did not get to shrink (round cap, budget) are still reported, unshrunk.
  for (const e of await env.transport.cachedExchanges()) env.judge.recordAll(e);
  return { explored, burst };
}
