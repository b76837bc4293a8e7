/**
 * client-ignores-unknown-fields, judged with the mock's variations (X-Dealkit-Variations names
 * those an answer carries): what the client did next. Sending the same request again sooner than
 * a client pacing at the limit would (window / limit) means it did not use the answer: it failed to
 * read it. A client that stops after one is shown, not judged: its run may simply end there.
 */
import { type JudgeContext, seconds } from "./context.ts";
import { type ClientFinding, type ClientObservation, EVIDENCE_CAP, type VariationOutcome } from "./types.ts";

/** Outcomes kept per client. */
const KEPT = 100;

/** The variation ids of an answer: the comma-separated header, trimmed, empty ones dropped. */
export function variationsOf(headers: Record<string, string>, header: string): string[] {
  return (headers[header] ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

export class VariationsTracker {
  private pending?: ClientObservation;
  readonly outcomes: VariationOutcome[] = [];

  observe(o: ClientObservation, ctx: JudgeContext): void {
    if (!ctx.counted(o)) return;
    const varied = this.pending;
    if (varied) {
      const delay = o.time - varied.answeredAt;
      const again = o.method === varied.method && o.target === varied.target;
      // A refusal's repeat is client-waits-retry-after's to judge; only an answer to read counts here.
      const atOnce = again && varied.status < 300 && delay < ctx.rules.pacedSpacingSeconds;
      this.record(ctx, varied, {
        next: atOnce ? "repeated-at-once" : "went-on",
        delaySeconds: Math.max(0, delay),
        nextRequest: ctx.evidence(o),
      });
      this.pending = undefined;
    }
    if (o.variations.length > 0) this.pending = o;
  }

  /** Closes the observation: a varied answer still waiting for a next request is where the client stopped. */
  finish(ctx: JudgeContext, stormAt: (t: number) => boolean): VariationOutcome[] {
    const out = [...this.outcomes];
    if (this.pending) out.push(outcome(ctx, this.pending, { next: "stopped" }));
    return out.map((v) =>
      v.next === "went-on" && v.nextRequest && stormAt(Date.parse(v.nextRequest.at) / 1000)
        ? { ...v, next: "storm" }
        : v,
    );
  }

  findings(ctx: JudgeContext, outcomes: VariationOutcome[]): ClientFinding[] {
    const atOnce = outcomes.filter((v) => v.next === "repeated-at-once");
    const first = atOnce[0];
    if (!first) return [];
    return [
      {
        rule: "client-ignores-unknown-fields",
        message: `sent the same request again ${seconds(first.delaySeconds ?? 0)} after an answer carrying ${first.variations.join(", ")} (sooner than the ${seconds(ctx.rules.pacedSpacingSeconds)} of a client pacing at the limit): it did not use the answer${atOnce.length > 1 ? `; ${atOnce.length} varied answers in all` : ""}`,
        count: atOnce.length,
        evidence: atOnce
          .slice(0, EVIDENCE_CAP)
          .map((v) => ({ ...(v.nextRequest ?? v.request), note: `after ${v.variations.join(", ")}` })),
      },
    ];
  }

  private record(
    ctx: JudgeContext,
    varied: ClientObservation,
    what: Omit<VariationOutcome, "at" | "request" | "variations">,
  ) {
    if (this.outcomes.length < KEPT) this.outcomes.push(outcome(ctx, varied, what));
  }
}

function outcome(
  ctx: JudgeContext,
  varied: ClientObservation,
  what: Omit<VariationOutcome, "at" | "request" | "variations">,
): VariationOutcome {
  const request = ctx.evidence(varied);
  return { at: request.at, request, variations: varied.variations, ...what };
}
