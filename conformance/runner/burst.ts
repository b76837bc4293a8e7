/**
 * The 429 burst, spent on the plan's own requests: one client address sends `limit` requests of
 * the plan within its first rate window (preflights among them, which must not count; every
 * operation in turn when the plan runs out), then one
 * over the limit (with a forged X-Forwarded-For), one to every other operation (all must be
 * refused), one from another address (spread runs: must be served), waits what Retry-After says
 * (never longer than the window) with a few refused knocks halfway, and is served again. What
 * happened is a BurstRecord, judged by the rate-limit check.
 */

import type { Spec } from "../../src/spec/spec.ts";
import { uncounted } from "../checks/rate-limit.ts";
import { countedAtStart, surelyInWindow } from "../checks/rate-limit-evidence.ts";
import type { Pacer } from "../http/pacer.ts";
import { type BurstRecord, type Exchange, isCounted, type RequestCase } from "../types.ts";
import { waitLine } from "./diagnosis.ts";
import type { Progress } from "./progress.ts";
import { countedRequests, type Item, type Sender } from "./sender.ts";
import type { RunEnd } from "./stop.ts";
import { describesPolicy, type SendOptions } from "./transport.ts";

/** The manifest: the cheapest request, for the burst's own requests. */
export const META: RequestCase = {
  method: "GET",
  operationId: "getMeta",
  pathname: "/api/v1/meta",
  query: [],
  headers: {},
  label: "burst",
};
/** TEST-NET-3 (RFC 5737): an address no real client has, sent by the client itself. */
const FORGED_CLIENT = "203.0.113.7";
/** Knocks beyond the window's opening requests: counted, they would outnumber the slots freed. */
const KNOCKS_BEYOND_OPENING = 2;
const OPENING_GAP_MS = 2000;
/** Requests over the limit a limiter that serves them is probed with (how much does it let through?). */
const OVER_LIMIT_PROBE = 30;
/** After the refusal: this many requests, this far apart (does it serve again long before it should?). */
const REFILL_PROBES = 3;
const REFILL_GAP_MS = 2000;
const BURST_LANES = 4;
/**
 * Everything over the limit must be sent within this share of the window after its first
 * request: later, the first requests leave the window and a correct server serves again.
 */
const WITHIN_WINDOW = 0.8;

export interface BurstEnv {
  spec: Spec;
  pacer: Pacer;
  sender: Sender;
  rate: { limit: number; windowSeconds: number };
  /**
   * Addresses the burst may use, in order of preference: one whose window is not empty on the
   * server (an earlier run) gives way to the next; the last one waits for its window to empty.
   */
  addresses: (string | undefined)[];
  /** A second client address (spread runs), for the per-IP check. */
  other: string | undefined;
  /** Requests already in this address's window (discovery, in one-address runs). */
  initial: Exchange[];
  /** Items sent first in the window: the preflights (which must not be counted). */
  first: Item[];
  /** Takes the next plan item sending at most `maxCounted` counted requests. */
  take(maxCounted: number): Item | undefined;
  /** A valid request of an operation (over the limit, every operation must refuse it). */
  validCase(operationId: string): RequestCase | undefined;
  /** Sends the first request after the wait (the next plan step in a one-address run). */
  afterWait(how: SendOptions): Promise<Exchange | undefined>;
  skipSlow: boolean;
  end: RunEnd;
  log(line: string): void;
  /** The live line's phase: the wait is shown with its seconds left. */
  progress?: Progress;
}

const remainingOf = (e: Exchange | undefined, limit: number) =>
  e && describesPolicy(e, limit) ? Number(e.headers["ratelimit-remaining"] ?? Number.NaN) : Number.NaN;

type Step = (env: BurstEnv, record: BurstRecord) => Promise<string | undefined>;

/**
 * Requests the server counted in this address's window before the run's first: the limit less
 * one less what its first answer left (a readiness probe leaves one); "full" when it was refused.
 */
function countedBefore(opening: Exchange | undefined, env: BurstEnv): number | "full" | undefined {
  if (opening?.status === env.spec.rateLimit.status) return "full";
  const remaining = remainingOf(opening, env.rate.limit);
  return Number.isInteger(remaining) ? Math.max(0, env.rate.limit - 1 - remaining) : undefined;
}

/** "1 request from before the run", in the log and in an incomplete verdict's reason. */
export function usedWords(used: NonNullable<BurstRecord["usedAtStart"]>): string {
  if (used.before === "full") return "the run's first request was refused: the window was full";
  if (used.before === undefined) return "requests from before the run";
  return `${used.before} request${used.before === 1 ? "" : "s"} from before the run`;
}

/**
 * Picks an address whose window the server holds empty (its first answer leaves limit - 1); on the
 * last one, a window used before the run (a readiness probe, an earlier job) is taken as it is
 * when its first answer says how many were counted (RateLimit-Remaining): the burst fills only the
 * rest. Only a count it cannot know (no such header, or refused at once) is waited out. Then it
 * pauses after the window's first requests: when Retry-After has passed, those (or the ones from
 * before the run) are the only ones that left the window, so a few refused knocks, if counted, keep
 * the client out. Then the preflights, which must not count.
 */
const openWindow: Step = async (env, record) => {
  const { limit, windowSeconds } = env.rate;
  const used = (e: Exchange | undefined) => {
    const remaining = remainingOf(e, limit);
    return e?.status === env.spec.rateLimit.status || (Number.isInteger(remaining) && remaining < limit - 1);
  };
  for (const [i, address] of env.addresses.entries()) {
    record.address = address;
    if (i > 0) record.window = [];
    const opening =
      record.window[0] ?? (await env.sender.request(META, { address, raw: true, phase: "burst" }));
    if (opening && record.window.length === 0) record.window.push(opening);
    if (!used(opening)) break;
    if (i < env.addresses.length - 1) continue;
    const before = countedBefore(opening, env);
    if (typeof before === "number") {
      record.usedAtStart = { before, waitedSeconds: 0 };
      env.log(
        `rate limit: the window of ${address ?? "this address"} was not empty on the server (${usedWords(record.usedAtStart)}); the burst counts them in and fills only the rest`,
      );
      break;
    }
    const ms = env.pacer.idleIn(address) || windowSeconds * 1000 + 1000;
    record.usedAtStart = { before, waitedSeconds: Math.ceil(ms / 1000) };
    env.log(
      `rate limit: the window of ${address ?? "this address"} was not empty on the server (${usedWords(record.usedAtStart)}); waiting ${Math.ceil(ms / 1000)} s for it to empty, so that the burst counts from zero`,
    );
    env.progress?.waiting(Date.now() + ms, `the window of ${address ?? "this address"} to empty`);
    const cut = await env.end.sleep(ms);
    env.progress?.waited();
    if (cut) return cut;
    record.window = [];
  }
  const raw = { address: record.address, raw: true, phase: "burst" } as const;
  if (record.window.length === 0) {
    const first = await env.sender.request(META, raw);
    if (!first) return env.sender.blocked() ?? "not sent";
    record.window.push(first);
  }
  record.opening = record.window.length;
  const cut = await env.end.sleep(OPENING_GAP_MS);
  if (cut) return cut;
  for (const item of env.first) record.window.push(...(await env.sender.item(item, raw)));
  return undefined;
};

/** Fills the window with the plan's own requests, a few lanes at a time, then the manifest if the plan ran out. */
const fill: Step = async (env, record) => {
  const status = env.spec.rateLimit.status;
  // Requests counted before the run take their places in the window.
  const gets = () => countedAtStart(record) + record.window.filter((e) => isCounted(e.request)).length;
  const refused = () => record.window.some((e) => e.status === status);
  const raw = { address: record.address, raw: true, phase: "burst" } as const;
  let inFlight = 0;
  const lane = async () => {
    for (;;) {
      if (refused() || env.sender.blocked()) return;
      const item = env.take(env.rate.limit - gets() - inFlight);
      if (!item) return;
      const counted = countedRequests(item);
      inFlight += counted;
      record.window.push(...(await env.sender.item(item, raw)));
      inFlight -= counted;
    }
  };
  await Promise.all(Array.from({ length: BURST_LANES }, lane));
  // The plan ran out (a spread run sends it from other addresses meanwhile): the public operations
  // fill the rest, the n-th of them 2n+1 times in a row, so that with no RateLimit-Remaining, when
  // the refusal comes still tells which operation takes more than one unit (their counts differ by
  // two). The personal streams stay out: a cache wrongly answering them would blur the count.
  const fillers = [
    META,
    ...env.spec.operations.flatMap((op) => {
      const request =
        op.operationId === META.operationId || op.secured ? undefined : env.validCase(op.operationId);
      return request ? [{ ...request, label: "burst" }] : [];
    }),
  ].flatMap((request, n) => Array.from({ length: 2 * n + 1 }, () => request));
  // Lanes as for the plan's requests: one at a time, a slow target would not fill a short window.
  let next = 0;
  let failed: string | undefined;
  const fillLane = async () => {
    while (!refused() && !failed && gets() + inFlight < env.rate.limit) {
      const request = fillers[next++ % fillers.length] as RequestCase;
      inFlight++;
      const e = await env.sender.request(request, raw);
      inFlight--;
      if (!e) failed = env.sender.blocked() ?? "the window could not be filled";
      else record.window.push(e);
    }
  };
  await Promise.all(Array.from({ length: BURST_LANES }, fillLane));
  return failed;
};

/**
 * Over the limit, while the window's first request is still in it. The request over the limit
 * carries a forged X-Forwarded-For (a limiter must not believe a client about its own address).
 * If it is served, plain requests follow until one is refused (as many as the window holds
 * requests the server may not have counted), then the forged one again: served after a plain
 * refusal, it is the forged header that opened the door. Then another address, and every other
 * operation at once.
 */
const overTheLimit: Step = async (env, record) => {
  const status = env.spec.rateLimit.status;
  const start = (record.window[0]?.sentAt ?? 0) * 1000;
  const closes = windowCloses(env, record);
  if (Date.now() > closes) {
    return `the window took ${Math.round((Date.now() - start) / 1000)} s to fill: the target answers too slowly to reach the limit within one window`;
  }
  env.log(
    `rate limit: ${record.window.length} requests in the window from ${record.address ?? "one address"}; now over the limit`,
  );
  const send = (request: RequestCase, address = record.address) =>
    env.sender.request(request, { address, raw: true, phase: "over-limit" });
  const overLimit = async (request: RequestCase) => {
    const e = await send(request);
    if (e) record.overLimit.push(e);
    return e;
  };
  const forged = { ...META, headers: { "x-forwarded-for": FORGED_CLIENT } };
  const over = await overLimit(forged);
  if (!over) return env.sender.blocked() ?? "not sent";
  if (over.status !== status) {
    // Served over the limit: one at a time until refused (as far as a bounded probe goes), to
    // measure what this limiter lets through; after a plain refusal the forged header once more
    // (and, if that is served, a plain one: served too, it is a refill, not the header).
    // Requests from before the run may leave the window meanwhile: each makes room for one.
    const uncertain = uncounted(record.window) + countedAtStart(record);
    for (let tries = 0; tries <= uncertain + Math.min(OVER_LIMIT_PROBE, env.rate.limit); tries++) {
      const plain = await overLimit(META);
      if (!plain || Date.now() > closes) break;
      if (plain.status !== status) continue;
      const again = await overLimit(forged);
      if (again && again.status !== status) await overLimit(META);
      break;
    }
  }
  if (env.other !== undefined) record.otherAddress = await send(META, env.other);
  const others = env.spec.operations.filter((o) => o.operationId !== META.operationId);
  const malformed = malformedCase(env);
  const answers = await Promise.all(
    [...others.map((op) => env.validCase(op.operationId)), malformed].map((request) =>
      request ? send(request) : undefined,
    ),
  );
  // An answer to a request sent after the window's first request left proves nothing.
  record.otherEndpoints = answers.filter((e): e is Exchange => e !== undefined && e.sentAt * 1000 < closes);
  return undefined;
};

/**
 * A request with a parameter out of range (`limit=0` of a public operation's valid request): over
 * the limit it must get the 429 too, since the limit is checked before the parameters
 * (info.description "Order of checks"; a 429 says nothing else).
 */
function malformedCase(env: BurstEnv): RequestCase | undefined {
  for (const op of env.spec.operations.filter((o) => !o.secured)) {
    const param = op.parameters.find(
      (p) => p.in === "query" && p.schema.type === "integer" && p.schema.minimum !== undefined,
    );
    const base = param && env.validCase(op.operationId);
    if (!param || !base) continue;
    const value = String((param.schema.minimum ?? 0) - 1);
    const query = [...base.query.filter(([k]) => k !== param.name), [param.name, value] as [string, string]];
    return { ...base, query, label: `burst: ${param.name}=${value} over the limit` };
  }
  return undefined;
}

/**
 * Right after the refusal, a few requests seconds apart, all before the window's first request
 * leaves it: a sliding window refuses every one (and, refused, they are not counted); a limiter
 * that serves one refills continuously (a leaky or token bucket), letting more than the limit
 * through over a window.
 */
async function refillProbes(
  env: BurstEnv,
  record: BurstRecord,
  probes: number,
  refusedAt: number,
): Promise<void> {
  const closes = windowCloses(env, record);
  const gap = Math.min(REFILL_GAP_MS, (env.rate.windowSeconds * 1000) / 10);
  for (let i = 0; i < probes; i++) {
    if (Date.now() + gap > closes || (await env.end.sleep(gap))) return;
    const waited = Math.round((Date.now() - refusedAt) / 100) / 10;
    const e = await env.sender.request(META, { address: record.address, raw: true, phase: "wait", waited });
    if (!e) return;
    record.refill.push(e);
  }
}

/** When requests over the limit stop proving anything: the window's first request is about to leave it. */
const windowCloses = (env: BurstEnv, record: BurstRecord) =>
  (record.window[0]?.sentAt ?? 0) * 1000 + WITHIN_WINDOW * env.rate.windowSeconds * 1000;

/** Waits what Retry-After says (at most the window), knocks halfway, and must be served after. */
const waitItOut: Step = async (env, record) => {
  const status = env.spec.rateLimit.status;
  const refusal = record.overLimit.find((e) => e.status === status);
  const ra = Number(refusal?.headers["retry-after"]);
  const wait = Number.isFinite(ra) && ra >= 1 ? Math.min(ra, env.rate.windowSeconds) : env.rate.windowSeconds;
  record.waited = wait;
  if (env.skipSlow) {
    env.pacer.rest(record.address, wait);
    return "--skip-slow: the run did not wait Retry-After; run without it to judge the wait";
  }
  // Counted, the refused requests of the wait (refill probes, then knocks) would outnumber the
  // opening requests, the only ones gone when the wait ends.
  const refused = env.spec.rateLimit.counts_refused ? 0 : record.opening + KNOCKS_BEYOND_OPENING;
  env.log(waitLine(refusal, env.rate.windowSeconds, refused));
  // The wait counts from the refusal: the refill probes and the knocks go within it.
  const refusedAt = (refusal?.receivedAt ?? Date.now() / 1000) * 1000;
  env.progress?.waiting(refusedAt + wait * 1000, "Retry-After");
  await refillProbes(env, record, Math.min(REFILL_PROBES, refused), refusedAt);
  const knocks = Math.max(0, refused - record.refill.filter((e) => e.status === status).length);
  const halfway = await env.end.sleep(refusedAt + (wait * 1000) / 2 - Date.now());
  if (halfway) return `${halfway} during the wait`;
  for (let i = 0; i < knocks; i++) {
    const e = await env.sender.request(META, {
      address: record.address,
      raw: true,
      phase: "wait",
      waited: wait / 2,
    });
    if (e) record.knocks.push(e);
  }
  const waited = await env.end.sleep(refusedAt + wait * 1000 + 300 - Date.now());
  env.progress?.waited();
  if (waited) return `${waited} during the wait`;
  const how = { address: record.address, raw: true, phase: "wait", waited: wait } as const;
  const after = await env.afterWait(how);
  if (!after) return env.sender.blocked() ?? "nothing was sent after the wait";
  record.after = after;
  return probeShape(env, record, how);
};

/**
 * The second phase, right after the wait: a sliding window has freed only what left it (the
 * opening requests, sent before the pause), a fixed window all of it at its boundary. So the
 * requests that follow `after` go at once, each the next of the plan in a one-address run (as
 * the paced run would send them in those slots), until one is refused or one more is served
 * than a sliding window frees by then (surelyInWindow): the sliding window refuses that one,
 * not counting it, a fixed window serves it.
 */
async function probeShape(env: BurstEnv, record: BurstRecord, how: SendOptions): Promise<string | undefined> {
  const status = env.spec.rateLimit.status;
  const refused = (e: Exchange) => e.status === status;
  const probes: Exchange[] = [];
  record.afterProbes = probes;
  const answers = [record.after as Exchange, ...probes];
  const frees = () => env.rate.limit - surelyInWindow(record, Date.now() / 1000, refused);
  while (!answers.some(refused) && answers.length <= frees()) {
    const e = await env.afterWait(how);
    if (!e) return env.sender.blocked() ?? "the window's shape was not probed after the wait";
    probes.push(e);
    answers.push(e);
  }
  return undefined;
}

export async function runBurst(env: BurstEnv): Promise<BurstRecord> {
  const record: BurstRecord = {
    address: env.addresses[0],
    limit: env.rate.limit,
    windowSeconds: env.rate.windowSeconds,
    window: [...env.initial],
    opening: 0,
    overLimit: [],
    refill: [],
    otherEndpoints: [],
    knocks: [],
  };
  for (const step of [openWindow, fill, overTheLimit, waitItOut]) {
    const skipped = await step(env, record);
    if (skipped) return { ...record, skipped };
  }
  return record;
}
