/**
 * Phase 5, report: the result of every check from what the judge counted and what execution
 * did. A check passes only with evidence (a case it declared could have shown a violation);
 * without any it is "not exercised", with the true reason: not selected, no account, --max-time
 * cut the run before its requests, the budget ran out, its endpoint failed, the data moved during
 * every comparison, the check's own reason its answers were none (no schema, no frozen release
 * for this operation), or the target's data held nothing to judge. A run cut by --max-time
 * before any of a check's planned requests went is not that check's evidence, whatever the
 * answers sent before (discovery's) showed.
 */
import type { Check, Phase, Severity, Violation } from "../types.ts";
import { goalCheck } from "./candidates.ts";
import type { Cause } from "./causes.ts";
import type { Evidence, Judge } from "./judge.ts";
import { acceptedNote } from "./known.ts";
import { type Plan, requestsOf } from "./plan.ts";
import type { Sender } from "./sender.ts";
import { MAX_TIME_REACHED } from "./stop.ts";

export type CheckStatus = "pass" | "fail" | "not-exercised" | "skipped";

export interface CheckResult {
  name: string;
  title: string;
  verifies: string;
  source: string;
  severity: Severity;
  /** The operation it judges, for a check of one operation (the HTML report filters by it). */
  operation?: string;
  status: CheckStatus;
  /** Exchanges judged, and those that could have shown a violation. */
  cases: number;
  informative: number;
  /** Plan requests meant to feed it, and how many of them were sent. */
  planned: number;
  sent: number;
  violations: Violation[];
  /** Why it was not exercised (or skipped). */
  reason?: string;
  /** Part of the check not done here, or comparisons that could not conclude. */
  note?: string;
  /** A pass that left parts unexercised (each with what it needs): shown "pass, in part", never a plain pass. */
  inPart?: string[];
}

/** What a passive run (dealkit proxy, dealkit judge) saw: it sends nothing, it reads traffic. */
export interface PassiveCounts {
  /** Exchanges seen in all. */
  exchanges: number;
  /** Those read by the checks (the API's operations, whole bodies under the cap). */
  judged: number;
  /** The rest, by reason (not an operation of the spec, method, body over the cap...). */
  notJudged: Record<string, number>;
  /** Findings in all, repeats included (the report keeps the first of each). */
  findings: number;
  /** Answers kept for cross-answer comparisons and let go at a memory bound, by reason (passive/pairs.ts). */
  released?: Record<string, number>;
}

/**
 * One exchange of an active run, as the HTML report's timeline draws it: a few numbers, never the
 * body (a 200-request run's timeline is a few kilobytes of the JSON report).
 */
export interface TimelinePoint {
  /** Milliseconds from the run's start to when the request left, and until the answer came. */
  at: number;
  ms: number;
  /** 0 when no whole answer came (then `failure` says how). */
  status: number;
  phase?: Phase;
  operation?: string;
  failure?: string;
  /** What it was for: a plan step's goals, a group's check, else its kind (discovery, burst, random...). */
  purpose?: string;
  /** Method, path and query as sent (capped: a long-URL probe must not grow the report). */
  request?: string;
}

export interface RunReport {
  seed: number;
  baseUrl: string;
  /** "passive": traffic judged as it passed (`requests` then counts exchanges seen, none sent). */
  mode: Plan["mode"] | "none" | "passive";
  startedAt: string;
  durationMs: number;
  requests: number;
  /** Set by passive runs. */
  passive?: PassiveCounts;
  /** The rate limit the run paced at and judged against (active runs). */
  rate?: { limit: number; windowSeconds: number };
  /** Every exchange the run sent, in the order the answers came (active runs). */
  timeline?: TimelinePoint[];
  /** 429 answers outside the deliberate burst (a correct runner against a correct server gets none). */
  unexpected429: number;
  checks: CheckResult[];
  /** Root causes of the findings, most severe first (violations carry the id of theirs). */
  causes: Cause[];
  notes: string[];
  /** True when "not exercised" counts as failing (--require-evidence). */
  requireEvidence: boolean;
  /** Set when the run stopped before judging (not this API, unreachable): exit 2. */
  error?: string;
  /** Set when SIGINT or SIGTERM stopped the run: what was received is judged, the rest not exercised. */
  stopped?: string;
  /** --known entries past their date: they fail the run whatever they match. */
  expiredKnown?: string[];
  /** What a CI job acts on (verdictOf): passed, failed, incomplete, or not-judged (exit 2). */
  verdict: Verdict;
  /** Why the run is incomplete: the run's own reason first, then each selected check not judged. */
  incomplete?: string[];
  /** verdict === "passed", kept for readers of the JSON report written before verdicts had three values. */
  passed: boolean;
}

interface Facts {
  plan?: Plan;
  judge?: Judge;
  sender?: Sender;
  account: boolean;
  selected: Set<string>;
  /** Operations whose endpoint kept failing, and how. */
  failing: Map<string, string>;
  /** Why the burst (the rate-limit check's evidence) was cut short. */
  burstSkipped?: string;
  /** Why the run was stopped from outside: the reason of every check left without evidence. */
  stopped?: string;
}

/** What a check's planned requests became: how many were planned, sent, and kept back by --max-time. */
interface PlannedEvidence {
  /** Requests planned for it, its groups' included, fallbacks not. */
  planned: number;
  /** Of those, the ones sent. */
  sent: number;
  /** Fallback requests (sent only for want of evidence) that --max-time kept back. */
  cutFallbacks: number;
  /** Whether --max-time kept back any of its requests, fallbacks included. */
  cut: boolean;
}

/**
 * The requests planned for a check: its steps and groups; for a check no request is planned for,
 * which judges every answer (content-encoding, cache-control), the whole plan. The burst's check
 * has reasons of its own (burstSkipped).
 */
function plannedEvidence(check: Check, facts: Facts, steps: Plan["steps"]): PlannedEvidence {
  const plan = facts.plan;
  const sender = facts.sender;
  const own = (plan?.groups ?? []).filter((g) => g.check === check.name);
  const everyAnswer = steps.length === 0 && own.length === 0 && check.judge && !check.judgeBurst;
  const scope = everyAnswer
    ? { steps: (plan?.steps ?? []).filter((s) => !s.sentBy), groups: plan?.groups ?? [] }
    : { steps, groups: own };
  const groupSent = (g: Plan["groups"][number]) => sender?.groups.some((r) => r.group === g) ?? false;
  const stepSent = (s: Plan["steps"][number]) =>
    sender?.sent.has(s) || (s.sentBy !== undefined && sender?.groups.some((r) => r.group.label === s.sentBy));
  const fallbackSteps = Object.entries(plan?.fallbacks ?? {})
    .filter(([goal]) => goalCheck(goal) === check.name)
    .flatMap(([, s]) => s);
  const fallbackGroups = plan?.fallbackGroups[check.name] ?? [];
  const cutStep = (s: Plan["steps"][number]) => sender?.unsent.get(s) === MAX_TIME_REACHED;
  const cutGroup = (g: Plan["groups"][number]) => sender?.unsentGroups.get(g) === MAX_TIME_REACHED;
  const cutFallbacks = fallbackSteps.filter(cutStep).length + requestsOf(fallbackGroups.filter(cutGroup));
  return {
    planned: scope.steps.length + requestsOf(scope.groups),
    sent: scope.steps.filter(stepSent).length + requestsOf(scope.groups.filter(groupSent)),
    cutFallbacks,
    cut: cutFallbacks > 0 || scope.steps.some(cutStep) || scope.groups.some(cutGroup),
  };
}

/** What --max-time did to a check's planned requests, in words; undefined when it kept none back. */
function cutWords(p: PlannedEvidence): string | undefined {
  if (!p.cut) return undefined;
  const fallbacks =
    p.cutFallbacks > 0 ? `${p.cutFallbacks} fallback request${p.cutFallbacks === 1 ? "" : "s"} not sent` : "";
  const planned = p.planned > 0 ? `${p.sent} of its ${p.planned} planned requests sent` : "";
  return `run cut by --max-time: ${[planned, fallbacks].filter(Boolean).join(", ")}`;
}

/** The reason its judged answers gave for being no evidence, the most frequent first (NoEvidence). */
function noEvidenceReason(evidence: Evidence): string | undefined {
  const [why, n] = Object.entries(evidence.none).sort((a, b) => b[1] - a[1])[0] ?? [];
  return why ? `${why} (${n} answer${n === 1 ? "" : "s"} judged)` : undefined;
}

/** The true reason a selected check has no evidence. */
function reasonFor(
  check: Check,
  evidence: Evidence,
  facts: Facts,
  planned: number,
  sent: number,
  unsent: string[],
  cut: string | undefined,
): string {
  if (check.needsAccount && !facts.account)
    return "no account: give --uid and --api-key to judge the key-protected streams";
  if (check.name === "rate-limit" && facts.burstSkipped) return facts.burstSkipped;
  if (facts.stopped) return facts.stopped;
  const failing = check.operationId ? facts.failing.get(check.operationId) : undefined;
  if (failing) return failing;
  if (cut) return cut;
  const groupUnsent = [...(facts.sender?.unsentGroups ?? [])].find(([g]) => g.check === check.name)?.[1];
  if (evidence.informative === 0 && groupUnsent) return groupUnsent;
  if (evidence.inconclusive.length > 0) return `inconclusive: ${evidence.inconclusive[0]}`;
  if (sent === 0 && unsent.length > 0) return unsent[0] ?? "not sent";
  const none = noEvidenceReason(evidence);
  if (none) return none;
  if (planned === 0 && evidence.cases === 0) return "no request of the plan can exercise it here";
  return `no matching data found: ${evidence.cases} answers judged, none could show a violation (empty or too few items)`;
}

export function checkResults(all: Check[], facts: Facts): CheckResult[] {
  return all.map((check) => {
    const base = {
      name: check.name,
      title: check.title,
      verifies: check.verifies,
      source: check.source,
      severity: check.severity,
      ...(check.operationId ? { operation: check.operationId } : {}),
    };
    const evidence = facts.judge?.evidence.get(check.name);
    if (!facts.selected.has(check.name) || !evidence) {
      return {
        ...base,
        status: "skipped",
        cases: 0,
        informative: 0,
        planned: 0,
        sent: 0,
        violations: [],
        reason: "not selected",
      };
    }
    const steps = (facts.plan?.steps ?? []).filter((s) => s.feeds.includes(check.name));
    const groupSent = (label: string) => facts.sender?.groups.some((g) => g.group.label === label) ?? false;
    const sent = steps.filter((s) => facts.sender?.sent.has(s) || (s.sentBy && groupSent(s.sentBy))).length;
    const unsent = steps.flatMap((s) => {
      const why = facts.sender?.unsent.get(s);
      return why ? [why] : [];
    });
    const violations = facts.judge?.violations.get(check.name) ?? [];
    // A violation a --known entry accepts is shown but does not fail; its case still counts as evidence.
    const open = violations.filter((v) => !v.known);
    const planned = plannedEvidence(check, facts, steps);
    const cut = cutWords(planned);
    // Cut before any of its planned requests went: what it judged (discovery's answers) is not what it planned.
    const cutBeforeAny = cut !== undefined && planned.planned > 0 && planned.sent === 0;
    const status =
      open.length > 0
        ? "fail"
        : (evidence.informative > 0 && !cutBeforeAny) || violations.length > 0
          ? "pass"
          : "not-exercised";
    const notes = [
      status === "pass" ? cut : undefined,
      violations.length > open.length ? acceptedNote(violations.length - open.length) : undefined,
      evidence.partial,
      ...Object.entries(check.evidenceKinds ?? {})
        .filter(([kind]) => evidence.informative > 0 && !evidence.kinds[kind])
        .map(([, unjudged]) => unjudged),
      evidence.informative > 0 && evidence.inconclusive.length > 0
        ? `${evidence.inconclusive.length} comparison(s) inconclusive: ${evidence.inconclusive[0]}`
        : undefined,
    ].filter((n): n is string => n !== undefined);
    return {
      ...base,
      status,
      cases: evidence.cases,
      informative: evidence.informative,
      planned: steps.length,
      sent,
      violations,
      ...(status === "not-exercised"
        ? { reason: reasonFor(check, evidence, facts, steps.length, sent, unsent, cut) }
        : {}),
      ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
      ...(status === "pass" && evidence.unjudged?.size ? { inPart: [...evidence.unjudged] } : {}),
    };
  });
}

/**
 * What a CI job acts on. not-judged: the run could not judge the target (not this API, unreachable,
 * input refused; exit 2). failed: a check failed or a --known entry expired. incomplete: nothing
 * failed but something selected was not judged (a check "not exercised", a run cut short). passed:
 * every selected check judged with evidence, and none failed.
 */
export type Verdict = "passed" | "failed" | "incomplete" | "not-judged";

/** The exit code of an incomplete run (documented in conformance/README.md#exit-codes). */
export const EXIT_INCOMPLETE = 3;

/**
 * The exit code of a verdict: 0 passed, 1 failed, 2 not judged, 3 incomplete (0 with
 * --allow-incomplete: the user's choice that a partial judgement is enough).
 */
export function verdictCode(verdict: Verdict, allowIncomplete = false): number {
  if (verdict === "incomplete") return allowIncomplete ? 0 : EXIT_INCOMPLETE;
  return { passed: 0, failed: 1, "not-judged": 2 }[verdict];
}

/** What decides a run's verdict besides its checks. */
export interface VerdictFacts {
  error?: string;
  expiredKnown?: number;
  /** A stop from outside (SIGINT, SIGTERM): the run is incomplete whatever it judged. */
  stopped?: string;
  /**
   * Why the run ended before its plan and exploration did (--max-time, the budget), the root first:
   * the first reason of an incomplete verdict when checks went unjudged; exploration alone cut
   * short leaves every check judged, and the run complete.
   */
  cut?: string;
  /** --require-evidence: incomplete is failed. */
  requireEvidence?: boolean;
}

/** The verdict, and for an incomplete run its reasons: the run's own first, then each check not judged. */
export function verdictOf(
  checks: CheckResult[],
  facts: VerdictFacts,
): { verdict: Verdict; incomplete?: string[]; passed: boolean } {
  if (facts.error) return { verdict: "not-judged", passed: false };
  const unjudged = checks
    .filter((c) => c.status === "not-exercised")
    .map((c) => `${c.name}: ${c.reason ?? "not exercised"}`);
  const reasons = [
    ...(facts.stopped ? [facts.stopped] : []),
    ...(facts.cut && unjudged.length > 0 ? [facts.cut] : []),
    ...unjudged,
  ];
  const failed = (facts.expiredKnown ?? 0) > 0 || checks.some((c) => c.status === "fail");
  if (failed || (facts.requireEvidence && reasons.length > 0))
    return { verdict: "failed", ...(reasons.length > 0 ? { incomplete: reasons } : {}), passed: false };
  if (reasons.length > 0) return { verdict: "incomplete", incomplete: reasons, passed: false };
  return { verdict: "passed", passed: true };
}

/** A passive run's verdict: it judges the traffic it saw, so a check nothing exercised is no gap in it. */
export function passiveVerdict(checks: CheckResult[]): { verdict: Verdict; passed: boolean } {
  const failed = checks.some((c) => c.status === "fail");
  return { verdict: failed ? "failed" : "passed", passed: !failed };
}
