/**
 * Phase 2, plan: the requests of the run, computed up front as data. The smallest set of
 * candidate requests that serves every goal (greedy set cover: each rule's evidence, each
 * boundary, a valid request of every operation), the groups checks ask for (preflights,
 * comparisons, credential variants), the burst, the fallbacks sent when a rule got no evidence,
 * then random exploration as the budget allows, spread evenly so no operation is starved.
 * The plan is computed for every check and then narrowed to the selected ones, so `--only`
 * keeps the very requests a full run sends (replays reproduce).
 */
import type { Spec } from "../../src/spec/spec.ts";
import { boundaryCases } from "../arbitraries/boundaries.ts";
import type { Account } from "../arbitraries/requests.ts";
import type { Vocabulary } from "../arbitraries/vocabulary.ts";
import type { Check, PlanContext, PlannedGroup, RequestCase } from "../types.ts";
import { type Candidate, candidatesOf, EVERY_ANSWER, goalCheck } from "./candidates.ts";

export interface PlanStep {
  request: RequestCase;
  /** Goals it was chosen for. */
  goals: string[];
  /** Checks that will judge its answer. */
  feeds: string[];
  /** The group that sends this very request (its answer is judged there): not sent on its own. */
  sentBy?: string;
}

export interface Plan {
  /** One client address paced at the advertised rate, or requests spread over loopback addresses. */
  mode: "one-address" | "spread";
  rate: { limit: number; windowSeconds: number };
  /** Most requests of the whole run, discovery and burst included. */
  budget: number;
  /** The first rate window is the 429 burst (a selected check judges 429 answers). */
  burst: boolean;
  steps: PlanStep[];
  groups: PlannedGroup[];
  /** Further requests per rule goal, sent only when the plan's own gave the rule no evidence. */
  fallbacks: Record<string, PlanStep[]>;
  /** Further groups per check (other first requests of a relation), likewise. */
  fallbackGroups: Record<string, PlannedGroup[]>;
  exploration: { operationId: string; runs: number; seed: number }[];
  /** Goals no request can serve here, and why. */
  uncovered: { goal: string; why: string }[];
}

export interface PlanInput {
  spec: Spec;
  checks: Check[];
  selected: Set<string>;
  vocabulary: Vocabulary;
  account?: Account;
  mode: Plan["mode"];
  rate: Plan["rate"];
  budget: number;
  seed: number;
  /** Random requests per operation; by default what the budget leaves. */
  randomRuns?: number;
  /** Requests discovery already spent. */
  spent: number;
}

/** A group of preflights only: the burst carries them (counted, they would make the limit arrive early). */
export const isPreflightGroup = (g: PlannedGroup) => g.requests.every((r) => r.method === "OPTIONS");

/** Requests the groups send (a compare group repeats its control). */
export const requestsOf = (groups: PlannedGroup[]) =>
  groups.reduce((n, g) => n + g.requests.length + (g.kind === "compare" ? 1 : 0), 0);

/** Fixed checks that judge 429 answers too: with one of them selected, the burst is sent. */
const BURST_READERS = new Set([
  "rate-limit",
  "rate-limit-reset",
  ...EVERY_ANSWER.filter((c) => c !== "answers-complete"),
]);
/** Requests the burst sends beyond the window: over the limit (2), another address, knocks, after. */
const burstExtras = (operations: number) => 2 + 1 + 3 + 1 + operations;
/** Requests kept back for fallbacks. */
const FALLBACK_RESERVE = 10;

/** Preflights of the manifest, sent in the burst when no check planned preflights of its own. */
function burstPreflights(spec: Spec): PlannedGroup {
  const request: RequestCase = {
    method: "OPTIONS",
    pathname: spec.operation("getMeta").path,
    query: [],
    headers: { "access-control-request-method": "GET" },
    label: "preflight in the burst",
  };
  return {
    check: "rate-limit",
    kind: "set",
    requests: [request, request, request],
    label: "preflights in the burst",
  };
}

const toStep = (c: Candidate, goals: string[] = []): PlanStep => ({
  request: c.request,
  goals,
  feeds: c.feeds,
});

/** Greedy set cover: the candidate serving the most open goals each time (the first such on ties). */
function cover(
  candidates: Candidate[],
  goals: Set<string>,
): { chosen: Candidate[]; served: Map<Candidate, string[]> } {
  const open = new Set(goals);
  const chosen: Candidate[] = [];
  const served = new Map<Candidate, string[]>();
  while (open.size > 0) {
    let best: Candidate | undefined;
    let bestScore = 0;
    for (const c of candidates) {
      if (served.has(c)) continue;
      let score = 0;
      for (const g of c.goals) if (open.has(g)) score++;
      if (score > bestScore) {
        best = c;
        bestScore = score;
      }
    }
    if (!best) break;
    const gained = best.goals.filter((g) => open.has(g));
    for (const g of gained) open.delete(g);
    chosen.push(best);
    served.set(best, gained);
  }
  return { chosen, served };
}

/** Valid requests of an operation, steered ones first (they should find data). */
export function validCasesOf(byOp: Map<string, Candidate[]>): (operationId: string) => RequestCase[] {
  return (operationId) =>
    (byOp.get(operationId) ?? [])
      .filter((c) => c.goals.includes(`valid:${operationId}`))
      .sort((a, b) => Number(b.steered) - Number(a.steered))
      .map((c) => c.request);
}

/** Every operation's candidates. */
export function candidatesByOperation(
  spec: Spec,
  vocabulary: Vocabulary,
  account?: Account,
): Map<string, Candidate[]> {
  return new Map(spec.operations.map((op) => [op.operationId, candidatesOf(spec, op, vocabulary, account)]));
}

/** Evidence first (rules), then valid boundaries, then invalid ones: a cut budget loses the least. */
const rank = (goals: string[]) =>
  goals.some((g) => g.startsWith("rule:")) ? 0 : goals.some((g) => g.startsWith("valid:")) ? 1 : 2;

/** The operation a goal is about: `valid:<op>…`, `invalid:<op>…`, or the operation of `rule:<id>`. */
function goalOperation(spec: Spec, goal: string) {
  const [kind, id] = goal.split(":");
  if (kind === "rule") return spec.rules().find(({ rule }) => rule.id === id)?.operation;
  return spec.operations.find((o) => o.operationId === id);
}

/** Every goal of a run: a valid request of each operation, each rule's evidence, each boundary case's. */
function goalsOf(spec: Spec, vocabulary: Vocabulary, account?: Account): Set<string> {
  const universe = new Set<string>();
  for (const op of spec.operations) {
    universe.add(`valid:${op.operationId}`);
    for (const rule of op.rules)
      if (!rule.then.ignores && !rule.then.uniformBody) universe.add(`rule:${rule.id}`);
    // Boundary cases are labelled with the goal they exist for.
    for (const r of boundaryCases(spec, op, vocabulary, account)) universe.add(r.label);
  }
  return universe;
}

/**
 * Evidence first: rule goals covered by requests steered toward the target's data (with all else
 * they serve), then the remaining goals by every candidate. Returns the choice in sending order.
 */
function choose(all: Candidate[], goals: Set<string>): PlanStep[] {
  const first = cover(
    all.filter((c) => c.steered),
    new Set([...goals].filter((g) => g.startsWith("rule:"))),
  );
  for (const c of first.chosen)
    first.served.set(
      c,
      c.goals.filter((g) => goals.has(g)),
    );
  const covered = new Set([...first.served.values()].flat());
  const rest = cover(
    all.filter((c) => !first.served.has(c)),
    new Set([...goals].filter((g) => !covered.has(g))),
  );
  const served = new Map([...first.served, ...rest.served]);
  return [...first.chosen, ...rest.chosen]
    .map((c, i) => ({ c, i, r: rank(served.get(c) ?? []) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ c }) => toStep(c, served.get(c)));
}

export function buildPlan(input: PlanInput): Plan {
  const { spec, account, vocabulary } = input;
  const byOp = candidatesByOperation(spec, vocabulary, account);
  const all = [...byOp.values()].flat();
  const universe = goalsOf(spec, vocabulary, account);
  const servable = new Set(all.flatMap((c) => c.goals));
  const uncovered = [...universe]
    .filter((g) => !servable.has(g))
    .map((goal) => ({
      goal,
      why:
        goalOperation(spec, goal)?.secured && !account
          ? "needs an account (--uid, --api-key)"
          : "no request can serve it",
    }));
  const ordered = choose(all, new Set([...universe].filter((g) => servable.has(g))));
  const chosen = new Set(ordered.map((s) => s.request));

  const validCases = validCasesOf(byOp);
  const planCtx: PlanContext = {
    spec,
    releases: [],
    rate: input.rate,
    vocabulary,
    ...(account ? { account } : {}),
    validCases,
  };
  const selected = (feeds: string[]) => feeds.some((f) => input.selected.has(f));
  const asked = input.checks
    .filter((c) => input.selected.has(c.name))
    .flatMap((c) => c.plan?.(planCtx) ?? []);
  const groups = asked.filter((g) => !g.fallback);
  const fallbackGroups: Record<string, PlannedGroup[]> = {};
  for (const g of asked.filter((x) => x.fallback))
    fallbackGroups[g.check] = [...(fallbackGroups[g.check] ?? []), g];
  const fallbacks: Record<string, PlanStep[]> = {};
  for (const goal of universe) {
    if (!goal.startsWith("rule:") || !input.selected.has(goalCheck(goal))) continue;
    const alternatives = all
      .filter((c) => !chosen.has(c.request) && c.goals.includes(goal))
      .sort((a, b) => Number(b.steered) - Number(a.steered))
      .slice(0, 2);
    if (alternatives.length > 0) fallbacks[goal] = alternatives.map((c) => toStep(c, [goal]));
  }
  // A step a group sends anyway (a relation's first request, the owner's request of a personal
  // stream) is judged there by every check alike: it is sent once, by the group.
  const key = (r: RequestCase) => JSON.stringify([r.method, r.pathname, r.query, r.rawQuery, r.headers]);
  const grouped = new Map(groups.flatMap((g) => g.requests.map((r) => [key(r), g.label] as const)));
  const steps = ordered
    .filter((s) => selected(s.feeds))
    .map((s) => {
      const group = grouped.get(key(s.request));
      return group ? { ...s, sentBy: group } : s;
    });
  const burst = [...input.selected].some((name) => BURST_READERS.has(name));
  // Preflights in the burst's window show whether they are counted (counts_preflight).
  if (burst && !groups.some(isPreflightGroup)) groups.push(burstPreflights(spec));
  const groupRequests = requestsOf(groups);
  const planned =
    input.spent +
    steps.filter((s) => !s.sentBy).length +
    groupRequests +
    (burst ? burstExtras(spec.operations.length) : 0) +
    Math.min(FALLBACK_RESERVE, Object.keys(fallbacks).length);
  const explored = spec.operations.filter((op) => selected(byOp.get(op.operationId)?.[0]?.feeds ?? []));
  const runs =
    input.randomRuns ?? Math.max(0, Math.floor((input.budget - planned) / Math.max(1, explored.length)));
  return {
    mode: input.mode,
    rate: input.rate,
    budget: input.budget,
    burst,
    steps,
    groups,
    fallbacks,
    fallbackGroups,
    exploration: explored.map((op) => ({
      operationId: op.operationId,
      runs,
      seed: (input.seed + spec.operations.indexOf(op) * 7919) | 0,
    })),
    uncovered: uncovered.filter((u) => input.selected.has(goalCheck(u.goal))),
  };
}
