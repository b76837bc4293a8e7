import type { Spec } from "../../src/spec/spec.ts";
import { curlLine } from "../http/curl.ts";
import { defaultRegistry, selectChecks } from "../registry.ts";
import { findCauses } from "../runner/causes.ts";
import { Judge } from "../runner/judge.ts";
import { checkResults, passiveVerdict, type RunReport } from "../runner/report.ts";
import { judgedSpecs } from "../runner/specs.ts";
import {
  type Check,
  type CheckContext,
  type Exchange,
  type Finding,
  operationName,
  type Severity,
} from "../types.ts";
import { passiveReason } from "./applicability.ts";
import { CrossAnswers } from "./pairs.ts";
import { readTraffic, type Traffic } from "./traffic.ts";

/** One finding on one exchange, as it streams (repeats included; `first` marks the report's one). */
export interface LiveFinding extends Finding {
  check: string;
  severity: Severity;
  operation: string;
  /** A curl line sending the same request (secrets redacted). */
  request: string;
  status: number;
  /** True for the first finding of its check, code and operation (the one the report keeps). */
  first: boolean;
  /** The exchange it is about (for a comparison: the variant, which may have passed earlier). */
  exchange: Exchange;
}

/** What judging one exchange gave. */
export interface Observed {
  exchange?: Exchange;
  /** Why it was not judged. */
  skipped?: string;
  findings: LiveFinding[];
}

export interface PassiveSetup {
  spec: Spec;
  releases: CheckContext["releases"];
  checks: Check[];
  all: Check[];
}

/** The spec, its frozen releases and the selected checks (--only/--skip as the suite reads them). */
export interface PassiveSetupOptions {
  specPath?: string;
  only?: string[];
  skip?: string[];
  /** The deployment's limit when it was configured with another than the spec's (--rate). */
  rate?: { limit: number; windowSeconds: number };
}

export async function passiveSetup(options: PassiveSetupOptions = {}): Promise<PassiveSetup> {
  const { spec, releases } = await judgedSpecs(options.specPath, options.rate);
  const registry = defaultRegistry(spec);
  return { spec, releases, checks: selectChecks(registry, options.only, options.skip), all: registry.all() };
}

export interface TrafficJudgeOptions {
  /** What the report names as the target: the upstream URL, or the file judged. */
  target: string;
  /** The API's base URL, when known: the replay line checks it actively. */
  baseUrl?: string;
  /** A path prefix the API is served under (from the base URL). */
  basePath?: string;
}

export class TrafficJudge {
  private readonly ctx: CheckContext;
  private readonly judge: Judge;
  private readonly cross: CrossAnswers;
  private readonly started = Date.now();
  private seen = 0;
  private judged = 0;
  private findings = 0;
  private readonly notJudged = new Map<string, number>();

  constructor(
    private readonly setup: PassiveSetup,
    private readonly options: TrafficJudgeOptions,
  ) {
    const { spec, releases, checks } = setup;
    this.ctx = {
      spec,
      releases,
      rate: { limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds },
    };
    const target = `--base-url ${options.baseUrl ?? "URL"} `;
    this.judge = new Judge(
      this.ctx,
      checks,
      0,
      options.baseUrl ?? options.target,
      target,
      // Traffic has no seed to replay: the curl line repeats the request, the suite checks it actively.
      (only) => `dealkit conformance ${target}--only ${only} (seen in traffic; this checks it actively)`,
    );
    this.cross = new CrossAnswers(this.ctx, checks);
  }

  /** Judges one exchange of traffic: its own findings, then the comparisons it completes. */
  observe(traffic: Traffic): Observed {
    const read = readTraffic(this.ctx.spec, traffic, this.options.basePath);
    if ("skipped" in read) {
      this.skip(read.skipped);
      return { skipped: read.skipped, findings: [] };
    }
    const { exchange } = read;
    this.seen++;
    this.judged++;
    const findings: LiveFinding[] = [];
    for (const j of this.judge.judge(exchange)) {
      const first = !this.judge.has(j.key);
      this.judge.record(j.check, j.finding, exchange);
      findings.push(this.live(j.check, j.finding, exchange, first));
    }
    for (const { check, verdict } of this.cross.see(exchange, traffic.client)) {
      for (const { finding, exchange: about } of verdict.findings)
        findings.push(
          this.live(check, finding, about, !this.judge.has(this.judge.keyOf(check, finding, about))),
        );
      this.judge.verdict(check, verdict);
    }
    this.findings += findings.length;
    return { exchange, findings };
  }

  /** Counts an exchange that is not judged, by reason (not the API's, the client went away first...). */
  skip(reason: string): void {
    this.seen++;
    this.notJudged.set(reason, (this.notJudged.get(reason) ?? 0) + 1);
  }

  private live(check: Check, finding: Finding, exchange: Exchange, first: boolean): LiveFinding {
    return {
      ...finding,
      check: check.name,
      severity: check.severity,
      operation: operationName(exchange),
      request: curlLine(exchange),
      status: exchange.status,
      first,
      exchange,
    };
  }

  /** The run as the reporters read it: per check the exchanges judged and the evidence, pass, fail or not exercised (and why). */
  report(notes: string[] = []): RunReport {
    const { spec, checks, all } = this.setup;
    const selected = new Set(checks.map((c) => c.name));
    const results = checkResults(all, {
      judge: this.judge,
      account: true,
      selected,
      failing: new Map(),
    }).map((r) => {
      const check = all.find((c) => c.name === r.name);
      const evidence = this.judge.evidence.get(r.name);
      if (r.status !== "not-exercised" || !check || !evidence) return r;
      return { ...r, reason: passiveReason(spec, check, evidence) };
    });
    const notJudged = Object.fromEntries(this.notJudged);
    const skipped = [...this.notJudged].map(([why, n]) => `${n} ${why}`).join(", ");
    // Answers kept for comparisons and let go at a bound (pairs.ts): comparisons they might have made are not made.
    const released = this.cross.released();
    const letGo = Object.entries(released)
      .map(([why, n]) => `${n} ${why}`)
      .join(", ");
    return {
      seed: 0,
      baseUrl: this.options.target,
      mode: "passive",
      startedAt: new Date(this.started).toISOString(),
      durationMs: Date.now() - this.started,
      requests: this.seen,
      passive: { exchanges: this.seen, judged: this.judged, notJudged, findings: this.findings, released },
      unexpected429: 0,
      checks: results,
      causes: findCauses(
        spec,
        results.flatMap((c) => c.violations),
        this.judge.census,
      ),
      notes: [
        `passive: ${this.seen} exchanges seen, ${this.judged} judged${skipped ? `; not judged: ${skipped}` : ""}; nothing was sent`,
        ...(letGo ? [`passive memory bounds (conformance/README.md): ${letGo}`] : []),
        ...notes,
      ],
      requireEvidence: false,
      ...passiveVerdict(results),
    };
  }
}
