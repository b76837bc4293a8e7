/**
 * Phase 4, judge: every exchange read by every selected check, with evidence kept per check
 * (cases judged, cases that could have shown a violation, comparisons that could not conclude),
 * and violations kept deduplicated by check, code and operation (the first, or the shrunk,
 * instance), each with a curl line, a replay and, for what the burst showed, a script that
 * fills the rate window first.
 */
import { curlLine, reproduceScript } from "../http/curl.ts";
import type { Check, CheckContext, Exchange, Finding, Verdict, Violation } from "../types.ts";
import { AnswerCensus, answerFacts } from "./causes.ts";

export interface Evidence {
  cases: number;
  informative: number;
  /** Informative cases per kind, for checks that name kinds of evidence (Check.evidenceKinds). */
  kinds: Record<string, number>;
  /** Why comparisons or the burst could not conclude. */
  inconclusive: string[];
  /** Part of the check that could not be done here. */
  partial?: string;
}

export interface JudgedFinding {
  check: Check;
  finding: Finding;
  key: string;
}

export class Judge {
  readonly evidence = new Map<string, Evidence>();
  readonly violations = new Map<string, Violation[]>();
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
      this.evidence.set(c.name, { cases: 0, informative: 0, kinds: {}, inconclusive: [] });
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
      const findings = check.judge?.(this.ctx, exchange);
      if (!findings) continue;
      const evidence = this.evidence.get(check.name);
      if (evidence) {
        evidence.cases++;
        const informative = check.informative ? check.informative(this.ctx, exchange) : true;
        if (informative) evidence.informative++;
        if (typeof informative === "string")
          evidence.kinds[informative] = (evidence.kinds[informative] ?? 0) + 1;
      }
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
    list.push({
      ...finding,
      check: check.name,
      severity: check.severity,
      operation,
      request: curlLine(exchange, reproduce !== undefined),
      seed: this.seed,
      replay: this.replayLine(only, path),
      ...(reproduce ? { reproduce } : {}),
      ...(exchange.status ? { answer: answerFacts(exchange) } : {}),
    });
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
    }
    for (const { finding, exchange } of verdict.findings) this.record(check, finding, exchange);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }
}
