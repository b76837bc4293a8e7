import { storageEvidence } from "../http/cache-evidence.ts";
import type { BurstRecord, Check, CheckContext, EvidenceOf, Exchange, Finding, Verdict } from "../types.ts";
import { isCounted, noEvidence } from "../types.ts";
import { answered } from "./rate-limit-evidence.ts";

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

/** Two roundings (the server's up to whole seconds, ours of the instants) may add up to this. */
const ROUNDING_SECONDS = 1;

/**
 * The burst knows when its window's first counted request left and was answered: the server counted
 * it in between, and every request it held before it leaves earlier still. So no slot of a sliding
 * window frees later than that request's answer plus the window: for an answer sent `t` s after it
 * (with none remaining, or a 429), RateLimit-Reset is at most (its answer + window) - t, plus the
 * rounding. A limiter that states its window's length there, or the time to a boundary of a fixed
 * window it does not keep, says more. Answers from storage (a cache's replay) are not the limiter's.
 */
function judgeResetBound(ctx: CheckContext, burst: BurstRecord): Verdict {
  const first = burst.window.find(
    (e) => isCounted(e.request) && answered(e) && e.status < 500 && e.status !== ctx.spec.rateLimit.status,
  );
  const leaves = (first?.receivedAt ?? 0) + burst.windowSeconds;
  const own = [
    ...burst.window,
    ...burst.overLimit,
    ...burst.refill,
    ...burst.otherEndpoints,
    ...burst.knocks,
  ];
  const bounded = own.filter((e) => {
    const window = windowOf(e);
    return first && window && window.remaining === 0 && e.sentAt < leaves && storageEvidence(e).length === 0;
  });
  const findings = bounded.flatMap((exchange) => {
    const reset = windowOf(exchange)?.reset ?? 0;
    const bound = leaves - exchange.sentAt;
    if (reset <= bound + ROUNDING_SECONDS) return [];
    const at = (exchange.sentAt - (first as Exchange).sentAt).toFixed(1);
    const finding: Finding = {
      code: "rate-limit-reset/beyond-oldest",
      title: `RateLimit-Reset ${reset} s on an answer sent ${at} s after the window's first request, which leaves the ${burst.windowSeconds}-second window within ${bound.toFixed(1)} s: a slot frees by then`,
      received: { "RateLimit-Reset": reset, sentAfterFirst: Number(at) },
      documented: `<= ${Math.ceil(bound) + ROUNDING_SECONDS} (the time until the oldest request in the window leaves it)`,
    };
    return [{ finding, exchange }];
  });
  // One finding per burst: every later answer says the same of the same window.
  return { findings: findings.slice(0, 1), informative: bounded.length > 0 };
}

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
    "RateLimit-Reset is 0 while RateLimit-Remaining is above 0, equals Retry-After (within a second) on a 429, never exceeds the window, and, in the 429 burst, never exceeds the time until the window's first request leaves it.",
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
  judgeBurst: judgeResetBound,
};
