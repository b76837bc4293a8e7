import { storageEvidence } from "../http/cache-evidence.ts";
import {
  type BurstRecord,
  type Check,
  type CheckContext,
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
  countedAtStart,
  earlyRefusalFits,
  foreignPage,
  limiterShape,
  preflightsBefore,
  preflightsCounted,
  type Refused,
  refusalOf,
  type ServedInWindow,
  servedInWindow,
  surelyInWindow,
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

/** What every step of the burst's judgement reads: the record, the contract, and where findings go. */
interface Judging {
  /** The record, its limit what was left of the window when the run began (countedAtStart). */
  burst: BurstRecord;
  /** The contract's limit per client address. */
  limit: number;
  policy: CheckContext["spec"]["rateLimit"];
  findings: { finding: Finding; exchange: Exchange }[];
  fail: Fail;
  /** Whether an answer is the limiter's refusal (the contract's 429, or a limiter in front's page). */
  limited: Refused;
  /** The window's counted requests (its GETs), in sending order. */
  gets: Exchange[];
  /** Requests of the window the server may not have counted. */
  uncertain: number;
  /** What one address got served within one window, in words (every shape finding starts with it). */
  measured: string;
  inWindow: ServedInWindow;
  /** Served again seconds after a refusal: a bucket refilling serves whichever request comes next. */
  refillsSoon: boolean;
}

/** Over the limit: what was served before the first refusal, and the operations that explains. */
interface OverLimit {
  firstRefusal: number;
  servedOver: Exchange[];
  uncountedOps?: ReturnType<typeof uncountedOperations>;
}

const forged = (e: Exchange) => e.request.headers["x-forwarded-for"] !== undefined;

/**
 * The 429 contract, judged on the burst (see runner/burst.ts): from one fresh client IP, `limit`
 * requests of the plan are served (the preflights among them not counted) and the next is
 * refused with 429, even with a forged X-Forwarded-For; every other operation refuses that client
 * too (applies_to: all-endpoints); another IP is still served (counting is per IP); refused
 * requests sent halfway through the wait are not counted, so after waiting Retry-After the client
 * is served again. What one address got served within one window is measured and reported.
 * Whether Retry-After is present and well-formed is response-headers' finding; that it never
 * exceeds the window is judged here, on every 429. The steps below, in order.
 */
function judgeBurst(ctx: CheckContext, burst: BurstRecord): Verdict {
  if (!burst.overLimit[0])
    return { findings: [], informative: false, inconclusive: burst.skipped ?? "the burst was not sent" };
  const { refused: limited, foreign } = refusalOf(burst, ctx.spec.rateLimit.status);
  const j = judging(ctx, burst, limited);
  if (foreign) judgeForeignRefusal(j, foreign);
  judgeWindow(j, foreign);
  judgeCostAnywhere(j);
  const over = overTheLimit(j);
  judgeCountdown(j, over);
  if (over.servedOver.length > j.uncertain && !over.uncountedOps) {
    judgeServedOver(j, over);
    const unjudged =
      "not judged while the limit was not enforced: a forged X-Forwarded-For, every endpoint refusing, another client IP served, served again after the wait";
    return { findings: j.findings, informative: true, partial: unjudged, unjudged: [unjudged] };
  }
  if (over.firstRefusal < 0) {
    const before = countedAtStart(burst);
    const left = before > 0 ? ` (or, of the ${before} from before the run, left the window meanwhile)` : "";
    const why = `${uncounted(burst.window)} requests of the window got no whole answer or a 5xx${left}: the server's count is unknown`;
    return { findings: j.findings, informative: false, inconclusive: why };
  }
  judgeForgedServed(j, over);
  judgeRefilled(j);
  judgeOtherAddress(j);
  judgeOtherEndpoints(j, over);
  judgeAfterWait(j);
  judgeResetWhole(j);
  const unjudged = unjudgedParts(j);
  return { findings: j.findings, informative: true, partial: partialOf(j, unjudged), unjudged };
}

/** The facts every step reads, drawn once from the record. */
function judging(ctx: CheckContext, record: BurstRecord, limited: Refused): Judging {
  const findings: Judging["findings"] = [];
  const inWindow = servedInWindow(record, limited);
  const before = countedAtStart(record);
  // Requests counted before the run fill part of the window, and may leave it as the burst goes.
  const burst = before > 0 ? { ...record, limit: record.limit - before } : record;
  return {
    burst,
    limit: record.limit,
    policy: ctx.spec.rateLimit,
    findings,
    fail: (exchange, code, title, received, documented) =>
      findings.push({ exchange, finding: { code: `rate-limit/${code}`, title, received, documented } }),
    limited,
    gets: burst.window.filter((e) => isCounted(e.request)),
    uncertain: uncounted(record.window) + before,
    measured: `${inWindow.served} served within ${inWindow.seconds} s from one client address (limit ${record.limit} per ${record.windowSeconds} s)`,
    inWindow,
    refillsSoon: burst.refill.some((x) => answered(x) && !limited(x)),
  };
}

/** Refused, but with another component's page: the limit holds, the contract's answer does not. */
function judgeForeignRefusal(j: Judging, foreign: Exchange): void {
  const server = foreign.headers.server ? `, Server: ${foreign.headers.server}` : "";
  j.fail(
    foreign,
    "refused-not-429",
    `over the limit the client was refused with ${foreign.status} ${foreign.mediaType} pages${server}, not ${j.policy.status} with Retry-After: a limiter in front answers for the API`,
    {
      status: foreign.status,
      mediaType: foreign.mediaType,
      ...(foreign.headers.server ? { server: foreign.headers.server } : {}),
    },
    `${j.policy.status} with Retry-After (${j.policy.retry_after})`,
  );
}

/** Within the window: counted together with other addresses, or refused early (and why). */
function judgeWindow(j: Judging, foreign: Exchange | undefined): void {
  const { burst, gets } = j;
  const firstRefused = gets.findIndex(j.limited);
  if (burst.countedTogether) {
    // Requests from the other addresses used up this client's window: that is the finding.
    j.fail(
      gets[firstRefused] ?? (burst.overLimit[0] as Exchange),
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
      j.fail,
      j.policy.counts_preflight,
      costlyOf(burst),
      j.limited,
      // Refused with another component's page: a limiter in front, not the API's.
      foreign !== undefined || foreignPage(gets[firstRefused] as Exchange),
    );
  }
}

/** An operation costing two units shows even when the burst's window held none of it (spread runs). */
function judgeCostAnywhere(j: Judging): void {
  const costly = costlyOf(j.burst);
  const withExchange = costly.find((c) => c.exchange);
  if (j.findings.some((f) => f.finding.code === "rate-limit/costs-more") || !withExchange?.exchange) return;
  j.fail(
    withExchange.exchange,
    "costs-more",
    costsText(costly),
    costly.map((c) => `${c.operation}: ${c.units} units`),
    "one unit per request",
  );
}

/**
 * Over the limit: plain requests served before the first refusal (those the server may not have
 * counted make room for as many) mean the limit is not the contract's; the forged header is left
 * out, since its being served is a fault of its own. Operations served over the limit, whose
 * requests in the window match what was served over, are not counted (judged at once).
 */
function overTheLimit(j: Judging): OverLimit {
  const { burst, limited, uncertain } = j;
  const firstRefusal = burst.overLimit.findIndex(limited);
  const before = firstRefusal < 0 ? burst.overLimit : burst.overLimit.slice(0, firstRefusal);
  const servedOver = before.filter((e) => !forged(e) && answered(e));
  const forgedServed = before.some((e) => forged(e) && answered(e) && !limited(e));
  // A bucket refilling serves whichever request comes next: one endpoint served over the limit no longer shows it exempt.
  const uncountedOps =
    firstRefusal >= 0 && servedOver.length > uncertain && !j.refillsSoon
      ? uncountedOperations(burst, servedOver.length, uncertain, forgedServed, limited)
      : undefined;
  if (uncountedOps) {
    const names = uncountedOps.operations.join(" and ");
    j.fail(
      uncountedOps.exchange,
      "endpoint-not-limited",
      `${j.measured}: ${servedOver.length} served over the limit, as many as the ${uncountedOps.requests} ${names} requests of the window, and ${names} still served over the limit: not counted`,
      { ...j.inWindow, limit: burst.limit, uncounted: { [names]: uncountedOps.requests } },
      `${j.policy.status} after ${burst.limit}: the limit applies to every endpoint`,
    );
  }
  return { firstRefusal, servedOver, ...(uncountedOps ? { uncountedOps } : {}) };
}

/**
 * RateLimit-Remaining counts down by one per counted request: in a window the server held empty,
 * whatever order the answers came in, the limit's requests leave limit-1 … 0, once each.
 */
function judgeCountdown(j: Judging, over: OverLimit): void {
  const { burst, gets } = j;
  const remaining = gets.map((e) => Number(e.headers["ratelimit-remaining"]));
  const whole =
    !burst.countedTogether &&
    !over.uncountedOps &&
    gets.findIndex(j.limited) < 0 &&
    j.uncertain === 0 &&
    gets.length === burst.limit &&
    remaining.every(Number.isInteger);
  if (!whole) return;
  const sorted = [...remaining].sort((a, b) => b - a);
  if (sorted.some((r, i) => r !== burst.limit - 1 - i)) {
    j.fail(
      gets[0] as Exchange,
      "remaining-not-counting",
      `RateLimit-Remaining does not count down by one per counted request over the ${burst.limit} requests of the window`,
      sorted,
      `${burst.limit - 1} down to 0, once each`,
    );
  }
}

/**
 * Served over the limit, no operation explaining it: the limit is not enforced, or (refused at last
 * and served again seconds later) a bucket that drained while the window filled (how many it let
 * over depends on how fast the client was): the shape is the finding.
 */
function judgeServedOver(j: Judging, over: OverLimit): void {
  const refilled = over.firstRefusal >= 0 && j.refillsSoon;
  j.fail(
    over.servedOver.at(-1) as Exchange,
    refilled ? "refills-early" : "not-enforced",
    `${j.measured}: ${over.servedOver.length} served over the limit; ${limiterShape(j.burst, j.limited)}`,
    {
      ...j.inWindow,
      limit: j.limit,
      windowSeconds: j.burst.windowSeconds,
      overLimit: over.servedOver.length,
    },
    `at most ${j.limit} within any ${j.burst.windowSeconds} s, then ${j.policy.status}`,
  );
}

/** Served right after a plain refusal, with a plain request right after it refused again: the header opened the door. */
function judgeForgedServed(j: Judging, over: OverLimit): void {
  const servedForged = j.burst.overLimit
    .slice(over.firstRefusal + 1)
    .find(
      (e, i, rest) => forged(e) && !j.limited(e) && !(rest[i + 1] && !j.limited(rest[i + 1] as Exchange)),
    );
  if (!servedForged) return;
  j.fail(
    servedForged,
    "trusts-forwarded-for",
    `a request over the limit was served because it carried X-Forwarded-For: ${servedForged.request.headers["x-forwarded-for"]} (the one before it, without, was refused)`,
    servedForged.status,
    `${j.policy.status}: ${j.policy.client_ip}`,
  );
}

/** Served again seconds after the refusal, long before the window's first request left it. */
function judgeRefilled(j: Judging): void {
  const refilled = j.burst.refill.filter((e) => answered(e) && !j.limited(e));
  if (refilled.length === 0) return;
  j.fail(
    refilled[0] as Exchange,
    "refills-early",
    `${j.measured}: ${limiterShape(j.burst, j.limited)}`,
    {
      ...j.inWindow,
      limit: j.burst.limit,
      windowSeconds: j.burst.windowSeconds,
      servedAgain: refilled.length,
    },
    `refused until the window's first request leaves it (sliding ${j.burst.windowSeconds}-second window)`,
  );
}

/** Another client address must still be served: counting is per client IP. */
function judgeOtherAddress(j: Judging): void {
  const other = j.burst.otherAddress;
  if (!other || !j.limited(other) || j.burst.countedTogether) return;
  j.fail(
    other,
    "per-ip",
    `another client IP (${other.localAddress ?? "default"}) was refused too: ${refusedBy(other)}`,
    other.status,
    "served: counted per client IP",
  );
}

/** Over the limit every other operation refuses the client too, before reading its parameters. */
function judgeOtherEndpoints(j: Judging, over: OverLimit): void {
  if (j.refillsSoon) return;
  const named = new Set(over.uncountedOps?.operations);
  const unlimited = j.burst.otherEndpoints.filter(
    (x) => !j.limited(x) && answered(x) && !named.has(operationName(x)),
  );
  for (const e of unlimited) {
    if ((e.parsed?.errors.length ?? 0) > 0) {
      j.fail(
        e,
        "parameters-before-limit",
        `${operationName(e)} answered ${e.status} to a request with a bad parameter while the client was over the limit: the parameters were read before the limit`,
        e.status,
        `${j.policy.status}: the rate limit is checked first (info.description "Order of checks")`,
      );
      continue;
    }
    j.fail(
      e,
      "endpoint-not-limited",
      `${operationName(e)} answered ${e.status} while the client was over the limit`,
      e.status,
      `${j.policy.status}: the limit applies to every endpoint`,
    );
  }
}

/** After waiting what Retry-After asked (with refused knocks halfway), the client is served again. */
function judgeAfterWait(j: Judging): void {
  const { burst } = j;
  if (!burst.after || !j.limited(burst.after)) return;
  const knocks = burst.knocks.length + burst.refill.filter(j.limited).length;
  j.fail(
    burst.after,
    "not-served-after-wait",
    `still refused after waiting ${waitedFor(burst, j.policy.status)}` +
      (knocks
        ? ` (${knocks} refused requests were sent during the wait: refused requests must not be counted)`
        : ""),
    burst.after.status,
    "served",
  );
}

/**
 * After the wait, the window's shape: each answer served after it, counted with those served before
 * it since the wait, against what a sliding window frees by then (the limit less the burst's requests
 * it surely still holds), and its RateLimit-Remaining against what is left. A fixed window resets
 * whole at its boundary: it serves, and says it has, what a sliding window still holds.
 */
function judgeResetWhole(j: Judging): void {
  const { burst } = j;
  // A bucket that refilled within seconds already explains more served after the wait: one defect, one finding.
  if (j.findings.some(({ finding }) => finding.code.endsWith("/refills-early"))) return;
  const answers = [burst.after, ...(burst.afterProbes ?? [])].filter((e): e is Exchange => e !== undefined);
  let served = 0;
  for (const e of answers) {
    if (j.limited(e) || !answered(e)) return;
    served++;
    const held = surelyInWindow(burst, e.receivedAt, j.limited);
    const left = Math.max(0, j.limit - held - served);
    const remaining = Number(e.headers["ratelimit-remaining"] ?? Number.NaN);
    const over = served > j.limit - held;
    if (!over && !(Number.isInteger(remaining) && remaining > left)) continue;
    const first = burst.window[0] as Exchange;
    const at = Number((e.sentAt - first.sentAt).toFixed(1));
    const says = Number.isInteger(remaining) ? ` (RateLimit-Remaining ${remaining})` : "";
    const which =
      served === 1 ? "the first request after it was served" : `${served} requests after it were served`;
    j.fail(
      e,
      "resets-whole",
      `after waiting ${waitedFor(burst, j.policy.status)}, ${which} ${at} s after the window's first request${says}, while ${held} requests served within the last ${burst.windowSeconds} s were still in a sliding window (limit ${j.limit}): the limit resets whole, a fixed window (up to ${2 * j.limit} within seconds across its boundary), not a sliding one`,
      { servedAfterWait: served, secondsAfterFirst: at, stillInWindow: held, ...(says ? { remaining } : {}) },
      `at most ${Math.max(0, j.limit - held)} served, RateLimit-Remaining at most ${left} (sliding ${burst.windowSeconds}-second window)`,
    );
    return;
  }
}

/**
 * What the burst judged, and the parts it did not, each with what it would need (the form of every
 * check judged in part: conformance/README.md "Judged in part"). A part not exercised is named as
 * such, never folded into the pass.
 */
function unjudgedParts(j: Judging): string[] {
  const { burst } = j;
  const afterWait = burst.after
    ? undefined
    : `the wait: served again after Retry-After, refused requests not counted, no refill before the window's first request leaves it, the window's shape after it (${burst.skipped ?? "the client was not seen served again after the wait"})`;
  return [
    burst.otherAddress
      ? undefined
      : "per-IP counting not tested (one source address: a second one is needed)",
    j.refillsSoon ? "every endpoint refusing over the limit (the limiter refills within seconds)" : undefined,
    afterWait,
  ].filter((part): part is string => part !== undefined);
}

/** What the burst judged, then the parts it did not (unjudgedParts). */
function partialOf(j: Judging, notJudged: string[]): string {
  const { burst } = j;
  const before = countedAtStart(burst);
  const counted =
    before > 0 ? `, with ${before} request${before === 1 ? "" : "s"} from before the run counted in` : "";
  return `judged: ${j.measured}${counted}${notJudged.length > 0 ? `; not judged: ${notJudged.join("; ")}` : ""}`;
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
    "60 requests per IP are served (preflights not counted) with RateLimit-Remaining counting down by one each, the 61st within a minute gets 429 even with a forged X-Forwarded-For, every other endpoint refuses it too, another IP is still served, Retry-After never exceeds the window, and the client is served again after waiting it (refused requests not counted), though no more than a sliding window has freed by then (not a fixed window's whole reset).",
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
