import { storageEvidence } from "../http/cache-evidence.ts";
import {
  type BurstRecord,
  type Check,
  type Exchange,
  type Finding,
  isCounted,
  operationName,
  type Verdict,
} from "../types.ts";
import {
  answered,
  type Cost,
  costlyOf,
  earlyRefusalFits,
  foreignPage,
  limiterShape,
  preflightsBefore,
  preflightsCounted,
  type Refused,
  refusalOf,
  servedInWindow,
  uncountedOperations,
} from "./rate-limit-evidence.ts";

/** Requests a server may not have counted: no whole answer, or a 5xx (it may fail before its limiter). */
export const uncounted = (window: Exchange[]) =>
  window.filter((e) => isCounted(e.request) && (!answered(e) || e.status >= 500)).length;

const costsText = (costly: Cost[]) =>
  costly
    .map(
      (c) =>
        `each ${c.operation} request took ${c.units} units of the limit (RateLimit-Remaining fell by ${c.units} at each of ${c.requests})`,
    )
    .join("; ");

/** How a refusal's title names counted preflights as one explanation that fits (runner/causes-of-limits.ts reads it). */
export const PREFLIGHTS_COUNTED = "preflights (OPTIONS) sent before it in the window are counted";

type Fail = (exchange: Exchange, code: string, title: string, received: unknown, documented: unknown) => void;

/**
 * Refused within the window: why, as the answers show it. Preflights are blamed only when
 * RateLimit-Remaining fell at each of them; an operation costing two units when the countdown
 * shows every one of its requests taking two. With no such header, from when the refusal came
 * (rate-limit-evidence.ts earlyRefusalFits): one explanation that fits is named as likely, several
 * that fit are named together, and none is blamed alone. A limiter in front refusing with its own
 * page (`inFront`) is not the one the API's RateLimit-Remaining counts down: only the timing speaks.
 */
function judgeRefusedEarly(
  burst: BurstRecord,
  gets: Exchange[],
  firstRefused: number,
  fail: Fail,
  countsPreflight: boolean,
  apiCostly: Cost[],
  refused: Refused,
  inFront: boolean,
): void {
  const e = gets[firstRefused] as Exchange;
  const uncertain = uncounted(burst.window);
  const preflights = burst.window.length - gets.length;
  const counted = inFront ? undefined : preflightsCounted(burst);
  const costly = inFront ? [] : apiCostly;
  const which = `request ${firstRefused + 1} of ${burst.limit} within the window was refused`;
  const sentBefore = preflightsBefore(burst, e.sentAt);
  const served = `${firstRefused} served`;
  if (!countsPreflight && preflights > 0 && counted === true) {
    fail(
      e,
      "counts-preflight",
      `${which}: preflights are counted (RateLimit-Remaining fell by one at each of the ${preflights} preflights)`,
      served,
      `${burst.limit} served (counts_preflight: false)`,
    );
    return;
  }
  if (costly.length > 0) {
    fail(e, "costs-more", `${which}: ${costsText(costly)}`, served, `${burst.limit} served, one unit each`);
    return;
  }
  if (firstRefused + uncertain >= burst.limit) return;
  const fits =
    counted === undefined && (inFront || !headersCount(gets))
      ? earlyRefusalFits(burst, uncertain, countsPreflight, refused, inFront)
      : undefined;
  const guesses = [
    ...(fits?.preflights
      ? [`the ${sentBefore} ${PREFLIGHTS_COUNTED} (${firstRefused + 1} + ${sentBefore} >= ${burst.limit})`]
      : []),
    ...(fits?.operations ?? []).map((op) => `each ${op} request takes two units`),
  ];
  const unseen = "no RateLimit-Remaining shows which requests were counted";
  if (guesses.length === 1 && fits?.preflights) {
    fail(
      e,
      "counts-preflight",
      `${which}: ${guesses[0]}, likely (${unseen})`,
      served,
      `${burst.limit} served (counts_preflight: false)`,
    );
  } else if (guesses.length === 1) {
    fail(
      e,
      "costs-more",
      `${which}: ${guesses[0]}, likely (${unseen})`,
      served,
      `${burst.limit} served, one unit each`,
    );
  } else {
    const why = guesses.length > 1 ? `: either ${guesses.join(", or ")} (${unseen})` : "";
    fail(e, "refused-early", `${which}${why}`, e.status, `${burst.limit} served`);
  }
}

/** Whether the window's answers carry the server's count (then the countdown, not the timing, says who took what). */
const headersCount = (gets: Exchange[]) =>
  gets.some((e) => Number.isInteger(Number(e.headers["ratelimit-remaining"] ?? Number.NaN)));

/**
 * The 429 contract, judged on the burst (see runner/burst.ts): from one fresh client IP, `limit`
 * requests of the plan are served (the preflights among them not counted) and the next is
 * refused with 429, even with a forged X-Forwarded-For; every other operation refuses that client
 * too (applies_to: all-endpoints); another IP is still served (counting is per IP); refused
 * requests sent halfway through the wait are not counted, so after waiting Retry-After the client
 * is served again. What one address got served within one window is measured and reported.
 * Whether Retry-After is present and well-formed is response-headers' finding; that it never
 * exceeds the window is judged here, on every 429.
 */
function judgeBurst(ctx: Parameters<NonNullable<Check["judgeBurst"]>>[0], burst: BurstRecord): Verdict {
  const policy = ctx.spec.rateLimit;
  const findings: { finding: Finding; exchange: Exchange }[] = [];
  const fail: Fail = (exchange, code, title, received, documented) =>
    findings.push({ exchange, finding: { code: `rate-limit/${code}`, title, received, documented } });
  const over = burst.overLimit[0];
  if (!over) return { findings, informative: false, inconclusive: burst.skipped ?? "the burst was not sent" };
  const { refused: limited, foreign } = refusalOf(burst, policy.status);
  if (foreign) {
    // Refused, but with another component's page: the limit holds, the contract's answer does not.
    const server = foreign.headers.server ? `, Server: ${foreign.headers.server}` : "";
    fail(
      foreign,
      "refused-not-429",
      `over the limit the client was refused with ${foreign.status} ${foreign.mediaType} pages${server}, not ${policy.status} with Retry-After: a limiter in front answers for the API`,
      {
        status: foreign.status,
        mediaType: foreign.mediaType,
        ...(foreign.headers.server ? { server: foreign.headers.server } : {}),
      },
      `${policy.status} with Retry-After (${policy.retry_after})`,
    );
  }

  const gets = burst.window.filter((e) => isCounted(e.request));
  const uncertain = uncounted(burst.window);
  const firstRefused = gets.findIndex(limited);
  const inWindow = servedInWindow(burst, limited);
  const measured = `${inWindow.served} served within ${inWindow.seconds} s from one client address (limit ${burst.limit} per ${burst.windowSeconds} s)`;
  if (burst.countedTogether) {
    // Requests from the other addresses used up this client's window: that is the finding.
    const e = gets[firstRefused] ?? over;
    fail(
      e,
      "per-ip",
      "requests from different client IPs were counted together (a proxy in front that hides client IPs, or a limiter that counts all clients as one)",
      `refused after ${firstRefused >= 0 ? firstRefused : gets.length} requests from this IP`,
      `${burst.limit} per client IP`,
    );
  } else if (firstRefused >= 0) {
    judgeRefusedEarly(
      burst,
      gets,
      firstRefused,
      fail,
      policy.counts_preflight,
      costlyOf(burst),
      limited,
      // Refused with another component's page: a limiter in front, not the API's.
      foreign !== undefined || foreignPage(gets[firstRefused] as Exchange),
    );
  }
  // An operation costing two units shows even when the burst's window held none of it (spread runs).
  const costly = costlyOf(burst);
  const withExchange = costly.find((c) => c.exchange);
  if (!findings.some((f) => f.finding.code === "rate-limit/costs-more") && withExchange?.exchange) {
    fail(
      withExchange.exchange,
      "costs-more",
      costsText(costly),
      costly.map((c) => `${c.operation}: ${c.units} units`),
      "one unit per request",
    );
  }
  // Over the limit: plain requests served before the first refusal (those the server may not
  // have counted make room for as many) mean the limit is not the contract's; the forged header
  // is left out, since its being served is a fault of its own.
  const forged = (e: Exchange) => e.request.headers["x-forwarded-for"] !== undefined;
  const firstRefusal = burst.overLimit.findIndex(limited);
  const before = firstRefusal < 0 ? burst.overLimit : burst.overLimit.slice(0, firstRefusal);
  const servedOver = before.filter((e) => !forged(e) && answered(e));
  // Operations served over the limit, whose requests in the window match what was served over: not counted.
  const forgedServed = before.some((e) => forged(e) && answered(e) && !limited(e));
  // Served again seconds after a refusal: a bucket refilling serves whichever request comes next,
  // so one request of an endpoint served over the limit no longer shows that endpoint exempt.
  const refillsSoon = burst.refill.some((x) => answered(x) && !limited(x));
  const uncountedOps =
    firstRefusal >= 0 && servedOver.length > uncertain && !refillsSoon
      ? uncountedOperations(burst, servedOver.length, uncertain, forgedServed, limited)
      : undefined;
  if (uncountedOps) {
    const names = uncountedOps.operations.join(" and ");
    fail(
      uncountedOps.exchange,
      "endpoint-not-limited",
      `${measured}: ${servedOver.length} served over the limit, as many as the ${uncountedOps.requests} ${names} requests of the window, and ${names} still served over the limit: not counted`,
      { ...inWindow, limit: burst.limit, uncounted: { [names]: uncountedOps.requests } },
      `${policy.status} after ${burst.limit}: the limit applies to every endpoint`,
    );
  }
  // RateLimit-Remaining counts down by one per counted request: in a window the server held
  // empty, whatever order the answers came in, the limit's requests leave limit-1 … 0, once each.
  const remaining = gets.map((e) => Number(e.headers["ratelimit-remaining"]));
  if (
    !burst.countedTogether &&
    !uncountedOps &&
    firstRefused < 0 &&
    uncertain === 0 &&
    gets.length === burst.limit &&
    remaining.every(Number.isInteger)
  ) {
    const sorted = [...remaining].sort((a, b) => b - a);
    if (sorted.some((r, i) => r !== burst.limit - 1 - i)) {
      fail(
        gets[0] as Exchange,
        "remaining-not-counting",
        `RateLimit-Remaining does not count down by one per counted request over the ${burst.limit} requests of the window`,
        sorted,
        `${burst.limit - 1} down to 0, once each`,
      );
    }
  }
  if (servedOver.length > uncertain && !uncountedOps) {
    const e = servedOver.at(-1) as Exchange;
    // Refused at last and served again seconds later: a bucket that drained while the window
    // filled (how many it let over depends on how fast the client was); the shape is the finding.
    const refilled = firstRefusal >= 0 && refillsSoon;
    fail(
      e,
      refilled ? "refills-early" : "not-enforced",
      `${measured}: ${servedOver.length} served over the limit; ${limiterShape(burst, limited)}`,
      { ...inWindow, limit: burst.limit, windowSeconds: burst.windowSeconds, overLimit: servedOver.length },
      `at most ${burst.limit} within any ${burst.windowSeconds} s, then ${policy.status}`,
    );
    return {
      findings,
      informative: true,
      partial:
        "not judged while the limit was not enforced: a forged X-Forwarded-For, every endpoint refusing, another client IP served, served again after the wait",
    };
  }
  if (firstRefusal < 0) {
    const why = `${uncertain} requests of the window got no whole answer or a 5xx: the server's count is unknown`;
    return { findings, informative: false, inconclusive: why };
  }
  // Served right after a plain refusal, with a plain request right after it refused again: the header opened the door.
  const servedForged = burst.overLimit
    .slice(firstRefusal + 1)
    .find((e, i, rest) => forged(e) && !limited(e) && !(rest[i + 1] && !limited(rest[i + 1] as Exchange)));
  if (servedForged) {
    fail(
      servedForged,
      "trusts-forwarded-for",
      `a request over the limit was served because it carried X-Forwarded-For: ${servedForged.request.headers["x-forwarded-for"]} (the one before it, without, was refused)`,
      servedForged.status,
      `${policy.status}: ${policy.client_ip}`,
    );
  }
  // Served again seconds after the refusal, long before the window's first request left it.
  const refilled = burst.refill.filter((e) => answered(e) && !limited(e));
  if (refilled.length > 0) {
    fail(
      refilled[0] as Exchange,
      "refills-early",
      `${measured}: ${limiterShape(burst, limited)}`,
      { ...inWindow, limit: burst.limit, windowSeconds: burst.windowSeconds, servedAgain: refilled.length },
      `refused until the window's first request leaves it (sliding ${burst.windowSeconds}-second window)`,
    );
  }
  if (burst.otherAddress && limited(burst.otherAddress) && !burst.countedTogether) {
    fail(
      burst.otherAddress,
      "per-ip",
      `another client IP (${burst.otherAddress.localAddress ?? "default"}) was refused too: ${refusedBy(burst.otherAddress)}`,
      burst.otherAddress.status,
      "served: counted per client IP",
    );
  }
  const named = new Set(uncountedOps?.operations);
  const unlimited = refillsSoon
    ? []
    : burst.otherEndpoints.filter((x) => !limited(x) && answered(x) && !named.has(operationName(x)));
  for (const e of unlimited) {
    if ((e.parsed?.errors.length ?? 0) > 0) {
      fail(
        e,
        "parameters-before-limit",
        `${operationName(e)} answered ${e.status} to a request with a bad parameter while the client was over the limit: the parameters were read before the limit`,
        e.status,
        `${policy.status}: the rate limit is checked first (info.description "Order of checks")`,
      );
      continue;
    }
    fail(
      e,
      "endpoint-not-limited",
      `${operationName(e)} answered ${e.status} while the client was over the limit`,
      e.status,
      `${policy.status}: the limit applies to every endpoint`,
    );
  }
  if (burst.after && limited(burst.after)) {
    const knocks = burst.knocks.length + burst.refill.filter(limited).length;
    fail(
      burst.after,
      "not-served-after-wait",
      `still refused after waiting ${waitedFor(burst, policy.status)}` +
        (knocks
          ? ` (${knocks} refused requests were sent during the wait: refused requests must not be counted)`
          : ""),
      burst.after.status,
      "served",
    );
  }
  const partial = [
    measured,
    burst.otherAddress ? undefined : "per-IP counting not tested (one source address)",
    refillsSoon
      ? "every endpoint refusing over the limit not judged (the limiter refills within seconds)"
      : undefined,
    burst.after ? undefined : (burst.skipped ?? "the client was not seen served again after the wait"),
  ].filter(Boolean);
  return { findings, informative: true, partial: partial.join("; ") };
}

/** Who refused another client: a cache giving a stored refusal (its own headers, a replayed Date), or the limiter counting clients together. */
function refusedBy(e: Exchange): string {
  const stored = storageEvidence(e);
  return stored.length > 0
    ? `a cache gave it a refusal from its storage (${stored.join("; ")}), not a limiter counting it`
    : "the target counts clients together";
}

/** What the wait after the refusal was, as the refusal asked it (or did not). */
function waitedFor(burst: BurstRecord, status: number): string {
  const refusal = burst.overLimit.find((e) => e.status === status);
  const said = refusal?.headers["retry-after"];
  if (!refusal) return `${burst.waited} s (the whole window: no ${status} was received to ask a wait)`;
  if (said === undefined)
    return `${burst.waited} s (the whole window: the ${status} asked no wait, no Retry-After)`;
  return `the ${burst.waited} s the server asked for (Retry-After: ${said})`;
}

export const rateLimit: Check = {
  name: "rate-limit",
  title: "Rate limit contract broken",
  verifies:
    "60 requests per IP are served (preflights not counted) with RateLimit-Remaining counting down by one each, the 61st within a minute gets 429 even with a forged X-Forwarded-For, every other endpoint refuses it too, another IP is still served, Retry-After never exceeds the window, and the client is served again after waiting it (refused requests not counted).",
  source: "x-rate-limit",
  severity: "high",
  judge(ctx, exchange) {
    if (exchange.failure || exchange.status !== ctx.spec.rateLimit.status) return null;
    const retryAfter = Number(exchange.headers["retry-after"]);
    if (!(retryAfter > ctx.rate.windowSeconds)) return [];
    return [
      {
        code: "rate-limit/retry-after-beyond-window",
        title: `Retry-After ${retryAfter} s is longer than the ${ctx.rate.windowSeconds}-second window: a slot frees within it`,
        received: retryAfter,
        documented: `<= ${ctx.rate.windowSeconds} (the real time until a slot frees)`,
      },
    ];
  },
  // Any 429 answers the Retry-After question; the burst itself is the informative case.
  informative: () => false,
  judgeBurst,
};
