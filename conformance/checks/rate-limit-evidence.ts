/**
 * What the burst's answers say about the limiter in front of the client, drawn from evidence
 * rather than from the first plausible cause: what one client address got over one window (a
 * number), whether refusals came back seconds later (a bucket refilling, not a sliding window),
 * which requests RateLimit-Remaining shows counted (preflights, requests costing two units).
 */
import type { UnitCost } from "../runner/unit-costs.ts";
import { type BurstRecord, type Exchange, isCounted, operationName } from "../types.ts";

/** A whole answer came (its body may not decode: the server answered, and counted, all the same). */
export const answered = (e: Exchange) => !e.failure || e.failure.kind === "undecodable";

/** Whether an answer is the limiter's refusal (the contract's 429, or a limiter in front's own page). */
export type Refused = (e: Exchange) => boolean;

/** Statuses a limiter or WAF in front refuses bursts with, on a page of its own (mod_evasive 403, nginx limit_req 503). */
const FOREIGN_REFUSALS = [403, 503];

/** The API never answers an HTML page: one is another component's. */
export const foreignPage = (e: Exchange) => answered(e) && e.mediaType === "text/html";

/**
 * What refuses this burst: the contract's status, and a page of another component when the
 * request over the limit (the manifest, which nothing else blocks) got one: a limiter in front
 * refusing with its own 403 or 503 page. An HTML 403 of a WAF rule some request of the window
 * happened to trip is not a refusal of the limit, and the manifest over the limit shows which.
 */
export function refusalOf(burst: BurstRecord, status: number): { refused: Refused; foreign?: Exchange } {
  const over = burst.overLimit[0];
  const foreign = over && foreignPage(over) && FOREIGN_REFUSALS.includes(over.status) ? over : undefined;
  return {
    refused: (e) =>
      e.status === status || (foreign !== undefined && e.status === foreign.status && foreignPage(e)),
    ...(foreign ? { foreign } : {}),
  };
}

const remainingOf = (e: Exchange) => Number(e.headers["ratelimit-remaining"] ?? Number.NaN);

/** Every GET the burst's address sent, in sending order. */
function burstGets(burst: BurstRecord): Exchange[] {
  return [
    ...burst.window,
    ...burst.overLimit,
    ...burst.refill,
    ...burst.otherEndpoints,
    ...burst.knocks,
    ...(burst.after ? [burst.after] : []),
    ...(burst.afterProbes ?? []),
  ]
    .filter((e) => isCounted(e.request))
    .sort((a, b) => a.sentAt - b.sentAt);
}

/** The requests counted before the run in the burst's window, when they were counted in, not waited out. */
export const countedAtStart = (burst: Pick<BurstRecord, "usedAtStart">): number =>
  burst.usedAtStart?.waitedSeconds === 0 && typeof burst.usedAtStart.before === "number"
    ? burst.usedAtStart.before
    : 0;

/**
 * The burst's requests a sliding window surely still holds at `at` (seconds): served and counted
 * (not forged, not a 5xx, not refused), sent less than a window before it. The server counted each
 * after it was sent, so none of them can have left; those sent earlier may have, or not (latency).
 * A sliding window frees at most `limit` less these by then.
 */
export function surelyInWindow(burst: BurstRecord, at: number, refused: Refused): number {
  const before = [
    ...burst.window,
    ...burst.overLimit,
    ...burst.refill,
    ...burst.otherEndpoints,
    ...burst.knocks,
  ];
  return before.filter(
    (e) =>
      isCounted(e.request) &&
      answered(e) &&
      !refused(e) &&
      e.status < 500 &&
      e.request.headers["x-forwarded-for"] === undefined &&
      e.sentAt > at - burst.windowSeconds,
  ).length;
}

/** The most requests one client address got served within one window, and over how many seconds. */
export interface ServedInWindow {
  served: number;
  seconds: number;
}

/**
 * The most answers served (not refused, whole) whose requests surely fell in one server window:
 * from the first one's answer to the last one's request, less than the window apart (so client and
 * server clocks cannot make a correct limiter look generous).
 */
export function servedInWindow(burst: BurstRecord, refused: Refused): ServedInWindow {
  // What an ordinary client gets: a request forging X-Forwarded-For is a fault of its own, and
  // another component's page (a WAF's 403) is no answer of the API's.
  const served = burstGets(burst).filter(
    (e) =>
      answered(e) && !refused(e) && !foreignPage(e) && e.request.headers["x-forwarded-for"] === undefined,
  );
  let best: ServedInWindow = { served: 0, seconds: 0 };
  let from = 0;
  for (let to = 0; to < served.length; to++) {
    while ((served[to] as Exchange).sentAt - (served[from] as Exchange).receivedAt >= burst.windowSeconds)
      from++;
    const n = to - from + 1;
    if (n > best.served) {
      const seconds = (served[to] as Exchange).receivedAt - (served[from] as Exchange).sentAt;
      best = { served: n, seconds: Math.round(seconds) };
    }
  }
  return best;
}

/** How a limiter that let requests through over the limit behaved: a shape, in words, with its numbers. */
export function limiterShape(burst: BurstRecord, refused: Refused): string {
  const refusal = burst.overLimit.find(refused) ?? burst.refill.find(refused);
  if (!refusal)
    return "no request over the limit was refused: the limit is not enforced, or is far above the contract's";
  const served = (e: Exchange) => answered(e) && !refused(e) && !foreignPage(e);
  const before = burstGets(burst).filter((e) => served(e) && e.sentAt < refusal.sentAt).length;
  const probes = burst.refill.filter((e) => e.sentAt > refusal.sentAt);
  const servedAgain = probes.filter(served);
  const first = servedAgain[0];
  if (!first)
    return `refused only after ${before} requests in the window: the limit in force is higher than the contract's ${burst.limit}`;
  const start = burst.window[0]?.sentAt ?? refusal.sentAt;
  const span = Math.max(1, (servedAgain.at(-1) as Exchange).sentAt - refusal.receivedAt);
  // Served at every probe, it refills at least as fast as they came; otherwise about as fast as they were served.
  const rate =
    servedAgain.length === probes.length
      ? `at least one request every ${(span / servedAgain.length).toFixed(1)} s (every probe was served)`
      : `about one request every ${(span / servedAgain.length).toFixed(1)} s`;
  return (
    `refused, then served again ${Math.round(first.sentAt - refusal.receivedAt)} s later, ` +
    `long before the window's first request left it (at ${Math.round(start + burst.windowSeconds - refusal.receivedAt)} s): ` +
    `the limit refills continuously, ${rate} after a burst of ${before}: a leaky or token bucket, not a sliding ${burst.windowSeconds}-second window`
  );
}

/**
 * Whether the window's preflights were counted, as RateLimit-Remaining shows: sent one after
 * another right after the window's first request, uncounted ones leave it where it was, counted
 * ones lower it by one each. Undefined when the answers do not say (no RateLimit-Remaining).
 */
export function preflightsCounted(burst: BurstRecord): boolean | undefined {
  const opening = burst.window.slice(
    0,
    burst.opening + burst.window.filter((e) => e.request.method === "OPTIONS").length,
  );
  const preflights = opening.filter((e) => e.request.method === "OPTIONS");
  const before = opening[burst.opening - 1];
  if (!before || preflights.length === 0) return undefined;
  const values = [before, ...preflights].map(remainingOf);
  if (!values.every(Number.isInteger)) return undefined;
  const drops = values.slice(1).filter((v, i) => v < (values[i] as number)).length;
  if (drops === preflights.length) return true;
  if (drops === 0) return false;
  return undefined;
}

/** An operation taking more than one unit of the limit per request, and one of its answers when known. */
export type Cost = Omit<UnitCost, "exchange"> & { exchange?: Exchange };

/**
 * Operations costing more than one unit: every request of theirs the run sent alone (the whole
 * run), or in the burst's window, lowered RateLimit-Remaining by two or more.
 */
export function costlyOf(burst: BurstRecord): Cost[] {
  const runWide = burst.unitCosts ?? [];
  return [
    ...runWide,
    ...costlyInWindow(burst).filter((c) => !runWide.some((r) => r.operation === c.operation)),
  ];
}

/**
 * Operations whose every request in the window took more than one unit of the limit, as the
 * countdown of RateLimit-Remaining shows (answers sorted by it: the one below a gap of k took k+1).
 * Only operations seen at least twice, every time costing more: a single gap can be another client.
 */
function costlyInWindow(burst: BurstRecord): Cost[] {
  const counted = burst.window
    .filter((e) => isCounted(e.request) && answered(e) && Number.isInteger(remainingOf(e)))
    .sort((a, b) => remainingOf(b) - remainingOf(a));
  const costs = new Map<string, number[]>();
  let previous = burst.limit;
  for (const e of counted) {
    const op = operationName(e);
    costs.set(op, [...(costs.get(op) ?? []), previous - remainingOf(e)]);
    previous = remainingOf(e);
  }
  return [...costs]
    .filter(([, units]) => units.length >= 2 && units.every((u) => u >= 2))
    .map(([operation, units]) => ({ operation, units: Math.min(...units), requests: units.length }));
}

/**
 * Without RateLimit-Remaining, what explains a refusal that came early, from when it came: the
 * requests of the window served (in whatever order they arrived) plus the units a hypothesis adds
 * (each preflight counted; each served request of one operation taking two) reach the limit, or
 * fall one short when a refused request is one that takes two. Requests the server may not have
 * counted widen the margin. Several hypotheses can fit the same numbers: all are named, and none
 * is then blamed alone.
 *
 * A limiter in front refusing with a page of its own (`inFront`: nginx's limit_req, mod_evasive,
 * HAProxy) counts every request it sees and knows nothing of the API's operations: only counted
 * preflights can explain its early refusal, and it may have refilled while the window filled, so
 * they fit when the refused request's number plus the preflights sent before it reach the limit
 * (refused at request N with K preflights sent, N + K >= limit).
 */
export function earlyRefusalFits(
  burst: BurstRecord,
  uncertain: number,
  countsPreflight: boolean,
  refused: Refused,
  inFront: boolean,
): { preflights: boolean; operations: string[] } {
  const gets = burst.window.filter((e) => e.request.method === "GET" && answered(e));
  const served = gets.filter((e) => !refused(e));
  const refusedOps = new Set(gets.filter(refused).map(operationName));
  const fits = (extra: number, refusedCostsTwo: boolean) => {
    const units = served.length + extra;
    return units <= burst.limit && units + uncertain >= burst.limit - (refusedCostsTwo ? 1 : 0);
  };
  const firstRefusal = Math.min(...gets.filter(refused).map((e) => e.sentAt));
  const preflights = preflightsBefore(burst, firstRefusal);
  const perOperation = new Map<string, number>();
  for (const e of served) perOperation.set(operationName(e), (perOperation.get(operationName(e)) ?? 0) + 1);
  const preflightsFit = inFront
    ? served.length + 1 + preflights + uncertain >= burst.limit
    : fits(preflights, false);
  return {
    preflights: !countsPreflight && preflights > 0 && preflightsFit,
    operations: inFront
      ? []
      : [...perOperation].filter(([op, n]) => n >= 2 && fits(n, refusedOps.has(op))).map(([op]) => op),
  };
}

/** The preflights (OPTIONS) the window sent before a moment. */
export const preflightsBefore = (burst: BurstRecord, sentAt: number) =>
  burst.window.filter((e) => e.request.method === "OPTIONS" && e.sentAt < sentAt).length;

/**
 * The operations not counted: those served over the limit when every operation was asked once
 * (burst.otherEndpoints), when their requests in the window account for what was served over
 * the limit: as many as they had, one fewer when the forged request over the limit was served and
 * counted, up to as many more as requests the server may not have counted. Undefined otherwise
 * (a limiter that refills serves some of those too, but not in that number).
 */
export function uncountedOperations(
  burst: BurstRecord,
  servedOver: number,
  uncertain: number,
  forgedServed: boolean,
  refused: Refused,
): { operations: string[]; requests: number; exchange: Exchange } | undefined {
  // A request with a bad parameter over the limit is the 429-first question, not this one.
  const unlimited = new Set(
    burst.otherEndpoints
      .filter((e) => answered(e) && !refused(e) && (e.parsed?.errors.length ?? 0) === 0)
      .map(operationName),
  );
  const theirs = burst.window.filter(
    (e) => e.request.method === "GET" && answered(e) && unlimited.has(operationName(e)),
  );
  if (theirs.length < 2) return undefined;
  // A served forged request was counted by a limiter that does not believe it (as it must); one
  // that believes it left it uncounted: either reading fits.
  const least = theirs.length - (forgedServed ? 1 : 0);
  if (servedOver < least || servedOver > theirs.length + uncertain) return undefined;
  return { operations: [...unlimited], requests: theirs.length, exchange: theirs[0] as Exchange };
}
