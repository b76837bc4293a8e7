/**
 * One client's traffic as the rules follow it: each rule keeps what it needs (bounded), and the
 * findings are drawn at the end, what follows from a finding shown under it rather than beside it.
 */
import { foreignUid, type JudgeContext } from "./context.ts";
import { KeysTracker } from "./keys.ts";
import { PacingTracker } from "./pacing.ts";
import { RefusedTracker } from "./refused.ts";
import { RetryAfterTracker } from "./retry-after.ts";
import type { ClientObservation, ClientReport } from "./types.ts";
import { VariationsTracker } from "./variations.ts";

/** User-Agents kept per client (a label, not an identity). */
const KEPT_AGENTS = 5;

export class ClientState {
  private readonly userAgents = new Set<string>();
  private requests = 0;
  private first = 0;
  private last = 0;
  private readonly retry = new RetryAfterTracker();
  private readonly pacing = new PacingTracker();
  private readonly refused = new RefusedTracker();
  private readonly keys = new KeysTracker();
  private readonly variations = new VariationsTracker();

  constructor(readonly client: string) {}

  observe(o: ClientObservation, ctx: JudgeContext): void {
    if (this.requests++ === 0) this.first = o.time;
    this.last = Math.max(this.last, o.time);
    if (o.userAgent && this.userAgents.size < KEPT_AGENTS) this.userAgents.add(o.userAgent);
    ctx.rememberKey(o);
    const keysInQuery = ctx.keysInQuery(o);
    this.retry.observe(o, ctx);
    this.pacing.observe(o, ctx);
    // A 401 for a key sent in the query, or with another account's uid, is shown by that finding.
    this.refused.observe(o, ctx, keysInQuery.length > 0 || foreignUid(ctx, o));
    this.keys.observe(o, ctx, keysInQuery);
    this.variations.observe(o, ctx);
  }

  report(ctx: JudgeContext): ClientReport {
    const stormAt = (t: number) => this.pacing.within(t);
    const folded = this.retry.early.filter((e) => stormAt(e.refusal.answeredAt));
    const includes = folded.length
      ? [
          `${folded.length} request${folded.length === 1 ? "" : "s"} sent before the Retry-After ${folded.length === 1 ? "it was" : "they were"} given (client-waits-retry-after)`,
        ]
      : [];
    const outcomes = this.variations.finish(ctx, stormAt);
    const findings = [
      ...this.retry.findings(ctx, (e) => stormAt(e.refusal.answeredAt)),
      ...this.pacing.findings(ctx, includes),
      ...this.refused.findings(ctx),
      ...this.keys.findings(ctx),
      ...this.variations.findings(ctx, outcomes),
    ];
    return {
      client: this.client,
      userAgents: [...this.userAgents],
      requests: this.requests,
      first: new Date(this.first * 1000).toISOString(),
      last: new Date(this.last * 1000).toISOString(),
      verdict: findings.length > 0 ? "failed" : "passed",
      findings,
      variations: outcomes,
      notJudged: this.keys.redacted
        ? [
            {
              rule: "client-one-account-per-key",
              reason: "the recording hid the keys (redacted): which account a key is cannot be told",
            },
          ]
        : [],
    };
  }
}
