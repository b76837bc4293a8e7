/**
 * client-waits-retry-after: after a 429 the client's next counted request comes no sooner than
 * the Retry-After it was given. The wait runs from the 429's arrival to the next request's start.
 */
import { type JudgeContext, seconds } from "./context.ts";
import { type ClientFinding, type ClientObservation, EVIDENCE_CAP } from "./types.ts";

/** One early request: the 429 it followed, how long it waited, how long it was asked to. */
export interface EarlyRequest {
  refusal: ClientObservation;
  next: ClientObservation;
  waited: number;
  asked: number;
}

/** Early requests kept to fold under a storm; beyond this only counted. */
const KEPT = 200;

/** Retry-After as delta-seconds (x-rate-limit.retry_after); undefined when absent or not a number. */
export function retryAfterOf(o: ClientObservation): number | undefined {
  const value = o.responseHeaders["retry-after"];
  return value !== undefined && /^\s*[0-9]+\s*$/.test(value) ? Number(value) : undefined;
}

export class RetryAfterTracker {
  private pending?: { refusal: ClientObservation; asked: number };
  readonly early: EarlyRequest[] = [];
  private uncounted = 0;

  observe(o: ClientObservation, ctx: JudgeContext): void {
    if (!ctx.counted(o)) return;
    if (this.pending) {
      const waited = o.time - this.pending.refusal.answeredAt;
      if (waited + ctx.rules.toleranceSeconds < this.pending.asked) {
        const early = { ...this.pending, next: o, waited };
        if (this.early.length < KEPT) this.early.push(early);
        else this.uncounted++;
      }
      this.pending = undefined;
    }
    const asked = o.status === ctx.rules.refusalStatus ? retryAfterOf(o) : undefined;
    if (asked !== undefined) this.pending = { refusal: o, asked };
  }

  /** The finding, leaving out the early requests `folded` claims (they are shown under a storm). */
  findings(ctx: JudgeContext, folded: (e: EarlyRequest) => boolean): ClientFinding[] {
    const shown = this.early.filter((e) => !folded(e));
    const first = shown[0];
    if (!first) return [];
    const count = shown.length + (shown.length === this.early.length ? this.uncounted : 0);
    const describe = (e: EarlyRequest) =>
      `${seconds(e.waited)} after a ${e.refusal.status} to ${e.refusal.method} ${ctx.mask(e.refusal.target)} that asked Retry-After: ${e.asked} (wait kept ${seconds(e.waited)} of ${e.asked} s)`;
    const verb = sameRequest(first) ? "retried" : "sent its next request";
    return [
      {
        rule: "client-waits-retry-after",
        message: `${verb} ${describe(first)}${count > 1 ? `; ${count} requests in all came before the wait asked` : ""}`,
        count,
        evidence: shown.slice(0, EVIDENCE_CAP).map((e) => ctx.evidence(e.next, describe(e))),
      },
    ];
  }
}

const sameRequest = (e: EarlyRequest) =>
  e.next.method === e.refusal.method && e.next.target === e.refusal.target;
