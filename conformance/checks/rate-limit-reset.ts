import type { Check, CheckContext, EvidenceOf, Exchange, Finding } from "../types.ts";
import { noEvidence } from "../types.ts";

/** A header's value when it is a non-negative integer (a malformed one is response-headers' finding). */
function count(value: string | undefined): number | undefined {
  return value !== undefined && /^[0-9]+$/.test(value.trim()) ? Number(value) : undefined;
}

/** What an answer says about its client's window, when it says it whole. */
function windowOf(exchange: Exchange) {
  if (exchange.failure || exchange.status === 0) return undefined;
  const reset = count(exchange.headers["ratelimit-reset"]);
  const remaining = count(exchange.headers["ratelimit-remaining"]);
  if (reset === undefined || remaining === undefined) return undefined;
  return { reset, remaining, retryAfter: count(exchange.headers["retry-after"]) };
}

const refused = (ctx: CheckContext, exchange: Exchange) => exchange.status === ctx.spec.rateLimit.status;

/**
 * RateLimit-Reset is "seconds until at least one more request is allowed" (components.headers).
 * While RateLimit-Remaining is above 0 a request is allowed now, so it is 0: a client that reads a
 * window's length there waits for nothing. On a 429 no request is allowed until a slot frees,
 * which Retry-After states too: the two agree (within a second, as two roundings of one instant
 * may differ), and a slot of a sliding window frees within the window.
 */
export const rateLimitReset: Check = {
  name: "rate-limit-reset",
  title: "RateLimit-Reset does not say when a request is allowed",
  verifies:
    "RateLimit-Reset is 0 while RateLimit-Remaining is above 0, equals Retry-After (within a second) on a 429, and never exceeds the window.",
  source: "components.headers.RateLimit-Reset; x-rate-limit",
  severity: "medium",
  judge(ctx, exchange) {
    const window = windowOf(exchange);
    if (!window) return null;
    const { reset, remaining, retryAfter } = window;
    const seconds = ctx.rate.windowSeconds;
    const findings: Finding[] = [];
    if (refused(ctx, exchange)) {
      if (retryAfter !== undefined && Math.abs(reset - retryAfter) > 1) {
        findings.push({
          code: "rate-limit-reset/not-retry-after",
          title: `a ${exchange.status} says RateLimit-Reset ${reset} but Retry-After ${retryAfter}: both are the time until a slot frees`,
          received: { "RateLimit-Reset": reset, "Retry-After": retryAfter },
          documented: "RateLimit-Reset equal to Retry-After (within a second)",
        });
      }
    } else if (remaining > 0 && reset !== 0) {
      findings.push({
        code: "rate-limit-reset/requests-remain",
        title: `RateLimit-Reset is ${reset} while RateLimit-Remaining is ${remaining}: a request is allowed now`,
        received: { "RateLimit-Remaining": remaining, "RateLimit-Reset": reset },
        documented: "0 while requests remain (seconds until at least one more request is allowed)",
      });
    }
    // On a 429 with Retry-After, a Reset beyond the window is Retry-After's too: rate-limit's finding.
    if (reset > seconds && !(refused(ctx, exchange) && retryAfter !== undefined)) {
      findings.push({
        code: "rate-limit-reset/beyond-window",
        title: `RateLimit-Reset ${reset} s is longer than the ${seconds}-second window: a slot frees within it`,
        received: reset,
        documented: `<= ${seconds}`,
      });
    }
    return findings;
  },
  informative: (ctx, exchange): EvidenceOf => {
    const window = windowOf(exchange);
    if (!window) return noEvidence("no answer carried RateLimit-Reset and RateLimit-Remaining as integers");
    if (refused(ctx, exchange)) return window.retryAfter === undefined ? true : "refused";
    return window.remaining > 0 ? "requests-remain" : true;
  },
  evidenceKinds: {
    "requests-remain": "no answer said requests remain: Reset 0 while they do was not judged",
    refused: "no 429 carried Retry-After: Reset agreeing with it was not judged",
  },
};
