/**
 * client-paces-below-limit: more than max_refusals 429s within one window (x-rate-limit's) is a
 * client that never paces: it spends the limit on refusals. Each such stretch is one storm.
 */
import type { JudgeContext } from "./context.ts";
import { type ClientFinding, type ClientObservation, EVIDENCE_CAP } from "./types.ts";

export interface Storm {
  /** Arrival of the first and last 429 of the stretch (unix s). */
  start: number;
  end: number;
  refusals: number;
  /** The most 429s within one window. */
  peak: number;
  first: ClientObservation[];
}

/** Storms kept per client; a client in one storm after another is shown by the first ones. */
const KEPT = 20;

export class PacingTracker {
  private window: ClientObservation[] = [];
  readonly storms: Storm[] = [];
  private more = 0;

  observe(o: ClientObservation, ctx: JudgeContext): void {
    if (o.status !== ctx.rules.refusalStatus) return;
    const t = o.answeredAt;
    this.window.push(o);
    while ((this.window[0]?.answeredAt ?? t) <= t - ctx.rules.windowSeconds) this.window.shift();
    if (this.window.length <= ctx.rules.maxRefusals) return;
    const current = this.storms.at(-1);
    if (current && t - current.end < ctx.rules.windowSeconds) {
      current.end = t;
      current.refusals++;
      current.peak = Math.max(current.peak, this.window.length);
      if (current.first.length < EVIDENCE_CAP) current.first.push(o);
      return;
    }
    if (this.storms.length >= KEPT) {
      this.more++;
      return;
    }
    const start = this.window[0]?.answeredAt ?? t;
    const first = this.window.slice(0, EVIDENCE_CAP);
    this.storms.push({ start, end: t, refusals: this.window.length, peak: this.window.length, first });
  }

  /** Whether a time falls within a storm (what follows from the storm is shown under it). */
  within(t: number): boolean {
    return this.storms.some((s) => t >= s.start && t <= s.end);
  }

  findings(ctx: JudgeContext, includes: string[]): ClientFinding[] {
    const first = this.storms[0];
    if (!first) return [];
    const refusals = this.storms.reduce((n, s) => n + s.refusals, 0);
    const w = ctx.rules.windowSeconds;
    const stretches = this.storms.length + this.more;
    const perMinute = Math.round((first.refusals * 60) / Math.max(w, first.end - first.start));
    return [
      {
        rule: "client-paces-below-limit",
        message: `met the limit ${first.peak} times within ${w} s (more than ${ctx.rules.maxRefusals} is a client that does not pace): ${refusals} × ${ctx.rules.refusalStatus} over ${stretches} stretch${stretches === 1 ? "" : "es"}, ${perMinute} per minute in the first`,
        count: refusals,
        evidence: first.first.map((o) =>
          ctx.evidence(o, `${o.status} (Retry-After: ${o.responseHeaders["retry-after"] ?? "none"})`),
        ),
        ...(includes.length ? { includes } : {}),
      },
    ];
  }
}
