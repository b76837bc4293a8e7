/**
 * Phase 4, judge: every exchange read by every selected check, with evidence kept per check as
 * the check declares it (cases judged, cases that could have shown a violation, why the others
 * could not, comparisons that could not conclude): nothing counts as evidence by default,
 * and violations kept deduplicated by check, code and operation (the first, or the shrunk,
 * instance), each with a curl line, a replay and, for what the burst showed, a script that
 * fills the rate window first.
 */
import { curlLine, reproduceScript } from "../http/curl.ts";
import type { Check, CheckContext, EvidenceOf, Exchange, Finding, Verdict, Violation } from "../types.ts";
import { AnswerCensus, answerFacts } from "./causes.ts";

export interface Evidence {
  cases: number;
  informative: number;
  /** Informative cases per kind, for checks that name kinds of evidence (Check.evidenceKinds). */
  kinds: Record<string, number>;
  /** Judged cases that were no evidence, per reason the check gave (NoEvidence): the report's reason when none was. */
  none: Record<string, number>;
  /** Why comparisons or the burst could not conclude. */
  inconclusive: string[];
  /** Part of the check that could not be done here. */
  partial?: string;
  /** The parts no case exercised (Verdict.unjudged), each once. */
  unjudged?: Set<string>;
}

/** Counts one judged case as the check declared it: evidence (of a kind), or none (and why). */
export function count(evidence: Evidence, said: EvidenceOf): void {
  evidence.cases++;
  if (typeof said === "object") evidence.none[said.none] = (evidence.none[said.none] ?? 0) + 1;
  else if (said) evidence.informative++;
  if (typeof said === "string") evidence.kinds[said] = (evidence.kinds[said] ?? 0) + 1;
}

export interface JudgedFinding {
  check: Check;
  finding: Finding;
  key: string;
}

export class Judge {
  readonly evidence = new Map<string, Evidence>();
  readonly violations = new Map<string, Violation[]>();
  /** The exchange each violation came from (the run links it to its point of the timeline). */
  readonly sources = new WeakMap<Violation, Exchange>();
  /** Every answer judged, tallied by what it looks like (who made it: runner/causes.ts). */
  readonly census = new AnswerCensus();
  private readonly judged = new WeakMap<Exchange, JudgedFinding[]>();
  private readonly keys = new Set<string>();

  constructor(
    private readonly ctx: CheckContext,
    readonly checks: Check[],
    private readonly seed: number,
    private readonly baseUrl: string,
    /** How the replay line names the target (`--base-url URL `, or "" for the bundled server). */
    private readonly replayTarget: string,
    /** The replay line for `--only` (passive judging, which has no seed to replay, gives its own). */
    private readonly replayLine: (only: string, path?: string) => string = (only, path) =>
      `dealkit conformance ${this.replayTarget}--seed ${this.seed} --only ${only}${path ? ` (fast-check path ${path})` : ""}`,
  ) {
    for (const c of checks) {
      this.evidence.set(c.name, { cases: 0, informative: 0, kinds: {}, none: {}, inconclusive: [] });
      this.violations.set(c.name, []);
    }
  }

  /** The operation of a request's path, whatever its method (a preflight of /api/v1/search is searchAlerts'). */
  private operationOf(exchange: Exchange): string {
    return (
      exchange.operation?.operationId ??
      exchange.request.operationId ??
      this.ctx.spec.match(exchange.request.pathname)?.operation.operationId ??
      exchange.request.pathname
    );
  }

  /** The dedupe key of a finding: its check, code and operation. */
  keyOf(check: Check, finding: Finding, exchange: Exchange): string {
    return `${check.name}|${finding.code}|${this.operationOf(exchange)}`;
  }

  /** Runs every judging check on an exchange once (memoized), counting cases and evidence. */
  judge(exchange: Exchange): JudgedFinding[] {
    const memo = this.judged.get(exchange);
    if (memo) return memo;
    this.census.add(exchange);
    const out: JudgedFinding[] = [];
    const operation = this.operationOf(exchange);
    for (const check of this.checks) {
      if (!check.judge) continue;
      const findings = check.judge(this.ctx, exchange);
      if (!findings) continue;
      const evidence = this.evidence.get(check.name);
      if (evidence) count(evidence, check.informative(this.ctx, exchange));
      for (const finding of findings)
        out.push({ check, finding, key: `${check.name}|${finding.code}|${operation}` });
    }
    this.judged.set(exchange, out);
    return out;
  }

  /** Keeps a violation unless one with the same key is already kept. */
  record(check: Check, finding: Finding, exchange: Exchange, path?: string): void {
    const operation = this.operationOf(exchange);
    const key = this.keyOf(check, finding, exchange);
    const list = this.violations.get(check.name);
    if (this.keys.has(key) || !list) return;
    this.keys.add(key);
    const only = check.name.includes(":") ? `'${check.name}'` : check.name;
    const reproduce = reproduceScript(exchange, this.baseUrl);
    const violation: Violation = {
      ...finding,
      check: check.name,
      severity: check.severity,
      operation,
      request: curlLine(exchange, reproduce !== undefined),
      seed: this.seed,
      replay: this.replayLine(only, path),
      ...(reproduce ? { reproduce } : {}),
      ...(exchange.status ? { answer: answerFacts(exchange) } : {}),
    };
    list.push(violation);
    this.sources.set(violation, exchange);
  }

  /** Records every finding of an exchange that is new. */
  recordAll(exchange: Exchange): void {
    for (const j of this.judge(exchange)) this.record(j.check, j.finding, exchange);
  }

  /** A check's verdict on a group or on the burst: its findings, and the evidence it counts as. */
  verdict(check: Check, verdict: Verdict): void {
    const evidence = this.evidence.get(check.name);
    if (evidence) {
      evidence.cases++;
      if (verdict.informative) evidence.informative++;
      if (verdict.inconclusive) evidence.inconclusive.push(verdict.inconclusive);
      if (verdict.partial) evidence.partial = verdict.partial;
      if (verdict.unjudged?.length)
        evidence.unjudged = new Set([...(evidence.unjudged ?? []), ...verdict.unjudged]);
    }
    for (const { finding, exchange } of verdict.findings) this.record(check, finding, exchange);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }
}
