/**
 * client-request-refused and client-repeats-refused-request: a 4xx other than the 429 is a request
 * the contract refuses; the same request (method, target, key) sent again unchanged gets the same
 * refusal. A refused request sent more than once is reported once, as a repeat naming the refusal.
 */
import type { JudgeContext } from "./context.ts";
import { type ClientFinding, type ClientObservation, EVIDENCE_CAP } from "./types.ts";

interface Refusal {
  first: ClientObservation;
  sent: number;
  last: ClientObservation;
}

/** Distinct refused requests kept per client; beyond this only counted. */
const KEPT = 200;

export class RefusedTracker {
  private readonly refusals = new Map<string, Refusal>();
  private more = 0;

  /** `explained`: a refusal another finding already shows (a key in the query answered 401). */
  observe(o: ClientObservation, ctx: JudgeContext, explained: boolean): void {
    if (explained || !ctx.refused(o)) return;
    const id = JSON.stringify([o.method, o.target, ctx.key(o) ?? ""]);
    const seen = this.refusals.get(id);
    if (seen) {
      seen.sent++;
      seen.last = o;
    } else if (this.refusals.size < KEPT) this.refusals.set(id, { first: o, sent: 1, last: o });
    else this.more++;
  }

  findings(ctx: JudgeContext): ClientFinding[] {
    const all = [...this.refusals.values()];
    const once = all.filter((r) => r.sent === 1);
    const repeated = all.filter((r) => r.sent > 1);
    const out: ClientFinding[] = [];
    const firstOnce = once[0];
    if (firstOnce)
      out.push({
        rule: "client-request-refused",
        message: `sent ${once.length + this.more} request${once.length + this.more === 1 ? "" : "s"} the contract refuses; the first: ${refusal(ctx, firstOnce.first)}`,
        count: once.length + this.more,
        evidence: once.slice(0, EVIDENCE_CAP).map((r) => ctx.evidence(r.first, refusal(ctx, r.first))),
      });
    const firstRepeat = repeated[0];
    if (firstRepeat)
      out.push({
        rule: "client-repeats-refused-request",
        message: `sent the same refused request ${firstRepeat.sent} times unchanged (${refusal(ctx, firstRepeat.first)})${repeated.length > 1 ? `; ${repeated.length} refused requests repeated in all` : ""}`,
        count: repeated.reduce((n, r) => n + r.sent - 1, 0),
        evidence: repeated
          .slice(0, EVIDENCE_CAP)
          .map((r) => ctx.evidence(r.last, `sent ${r.sent} times, each refused: ${refusal(ctx, r.first)}`)),
      });
    return out;
  }
}

/** "GET /api/v1/rank?limit=0 → 400 /problems/invalid-parameter" */
function refusal(ctx: JudgeContext, o: ClientObservation): string {
  return `${o.method} ${ctx.mask(o.target)} → ${o.status}${o.problemType ? ` ${o.problemType}` : ""}`;
}
