/**
 * What a run found, per check: cases judged, requests spent, violations (deduplicated by
 * check, code and operation; the first, or the shrunk, instance is kept).
 */
import { curlLine } from "../http/curl.ts";
import type { Check, CheckContext, Exchange, Finding, Violation } from "../types.ts";

export type CheckStatus = "pass" | "fail" | "skipped";

export interface CheckResult {
  name: string;
  title: string;
  verifies: string;
  source: string;
  severity: Check["severity"];
  status: CheckStatus;
  cases: number;
  requests: number;
  violations: Violation[];
  note?: string;
}

export interface RunReport {
  seed: number;
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  requests: number;
  /** 429 answers outside the deliberate burst (a correct runner against a correct server gets none). */
  unexpected429: number;
  checks: CheckResult[];
  notes: string[];
  passed: boolean;
}

export interface JudgedFinding {
  check: Check;
  finding: Finding;
  key: string;
}

export class Recorder {
  readonly results = new Map<string, CheckResult>();
  private readonly judged = new WeakMap<Exchange, JudgedFinding[]>();
  private readonly keys = new Set<string>();

  constructor(
    private readonly ctx: CheckContext,
    private readonly checks: Check[],
    private readonly seed: number,
    private readonly replayBase: string,
  ) {
    for (const c of checks) {
      this.results.set(c.name, {
        name: c.name,
        title: c.title,
        verifies: c.verifies,
        source: c.source,
        severity: c.severity,
        status: "pass",
        cases: 0,
        requests: 0,
        violations: [],
      });
    }
  }

  /** Runs every judging check on an exchange once (memoized), counting the cases each applied to. */
  judge(exchange: Exchange): JudgedFinding[] {
    const memo = this.judged.get(exchange);
    if (memo) return memo;
    const out: JudgedFinding[] = [];
    for (const check of this.checks) {
      const findings = check.judge?.(this.ctx, exchange);
      if (!findings) continue;
      const result = this.results.get(check.name);
      if (result) result.cases++;
      const operation = exchange.operation?.operationId ?? exchange.request.pathname;
      for (const finding of findings)
        out.push({ check, finding, key: `${check.name}|${finding.code}|${operation}` });
    }
    this.judged.set(exchange, out);
    return out;
  }

  /** Keeps a violation unless one with the same key is already kept. */
  record(check: Check, finding: Finding, exchange: Exchange, path?: string): void {
    const operation =
      exchange.operation?.operationId ?? exchange.request.operationId ?? exchange.request.pathname;
    const key = `${check.name}|${finding.code}|${operation}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    const result = this.results.get(check.name);
    if (!result) return;
    result.status = "fail";
    const only = check.name.includes(":") ? `'${check.name}'` : check.name;
    result.violations.push({
      ...finding,
      check: check.name,
      severity: check.severity,
      operation,
      request: curlLine(exchange, check.name === "rate-limit"),
      seed: this.seed,
      replay: `dealkit conformance ${this.replayBase}--seed ${this.seed} --only ${only}${path ? ` (fast-check path ${path})` : ""}`,
    });
  }

  /** Records every finding of an exchange that is new (probe exchanges: no shrinking). */
  recordAll(exchange: Exchange): void {
    for (const j of this.judge(exchange)) this.record(j.check, j.finding, exchange);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }
}
