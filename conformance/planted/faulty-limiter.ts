/**
 * A rate limiter with one classic fault, standing in for the real one upstream: every upstream
 * request leaves from a new address (the real limiter never fires), and this one answers 429 in
 * its place, with the reference server's own headers and problem body, so that only the fault
 * differs from a correct implementation.
 */

import { type Decision, RateLimiter, rateLimitHeaders } from "../../reference-server/ratelimit/limiter.ts";
import { MemoryStore } from "../../reference-server/ratelimit/memory.ts";
import type { RateLimitStore, WindowState } from "../../reference-server/ratelimit/store.ts";
import { cacheControl } from "../../src/http/caching.ts";
import { corsHeaders } from "../../src/http/cors.ts";
import { PROBLEM_JSON, rateLimited } from "../../src/http/problems.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Mutation, ProxiedRequest, ProxiedResponse } from "./proxy.ts";

export type LimiterFault =
  | "counts-preflight"
  | "counts-refused"
  | "trusts-forwarded-for"
  | "skips-rss"
  | "counts-clients-together"
  | "leaky-bucket"
  | "fixed-window"
  | "search-costs-two"
  | "search-costs-two-unseen";

/**
 * Shared by every faulty limiter of the process: each upstream request leaves from an address
 * never used before, or the real limiter's window would carry over from one run to the next.
 */
let upstreamRequests = 0;

/** A sliding log that also records the requests it refuses: knocking keeps a client out. */
class CountsRefusedStore implements RateLimitStore {
  private readonly log = new Map<string, number[]>();

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    const times = this.live(key, nowMs, windowMs);
    const allowed = times.length < limit;
    times.push(nowMs);
    return { allowed, count: times.length, oldestMs: times[0] };
  }

  async peek(key: string, nowMs: number, windowMs: number) {
    const times = this.live(key, nowMs, windowMs);
    return { count: times.length, oldestMs: times[0] };
  }

  async close(): Promise<void> {}

  private live(key: string, nowMs: number, windowMs: number): number[] {
    const times = (this.log.get(key) ?? []).filter((t) => t > nowMs - windowMs);
    this.log.set(key, times);
    return times;
  }
}

/**
 * A leaky bucket (nginx's limit_req with `burst=limit nodelay`): `limit` at once, then one more
 * every window/limit seconds. Over a whole window it serves far more than `limit`, and a refused
 * client is served again seconds later, not when its window's first request leaves it.
 */
class LeakyBucketStore implements RateLimitStore {
  private readonly buckets = new Map<string, { level: number; at: number }>();

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    const level = this.level(key, nowMs, limit, windowMs);
    const allowed = level + 1 <= limit;
    const after = allowed ? level + 1 : level;
    this.buckets.set(key, { level: after, at: nowMs });
    return { allowed, count: Math.ceil(after), oldestMs: this.slotFreesAt(after, nowMs, limit, windowMs) };
  }

  /**
   * Its Reset and Retry-After honest for a bucket (the time until one more request fits, a fraction of
   * the window), so that only its shape differs: stated as the instant a window's oldest would have come.
   */
  private slotFreesAt(level: number, nowMs: number, limit: number, windowMs: number): number {
    const untilOneFits = (Math.max(0, level + 1 - limit) * windowMs) / limit;
    return nowMs - windowMs + untilOneFits;
  }

  async peek(key: string, nowMs: number, windowMs: number) {
    return { count: Math.ceil(this.level(key, nowMs, Number.POSITIVE_INFINITY, windowMs)), oldestMs: nowMs };
  }

  async close(): Promise<void> {}

  /** What is left in the bucket: it drains at limit per window. */
  private level(key: string, nowMs: number, limit: number, windowMs: number): number {
    const b = this.buckets.get(key);
    if (!b) return 0;
    const rate = (Number.isFinite(limit) ? limit : 60) / windowMs;
    return Math.max(0, b.level - (nowMs - b.at) * rate);
  }
}

/**
 * A fixed window (express-rate-limit's default, many gateways'): counts reset whole at every multiple
 * of the window on its clock (each wall-clock minute for 60 s), so up to twice the limit gets
 * through within seconds across a boundary. Its Reset and Retry-After are honest for itself: the
 * time to the boundary. With `leadMs`, a client's windows start that long before its first request
 * (the wall clock's phase, pinned: a test waits for no minute to turn, a burst never straddles).
 */
export class FixedWindowStore implements RateLimitStore {
  private readonly counts = new Map<string, { start: number; count: number }>();
  private readonly phase = new Map<string, number>();

  constructor(private readonly leadMs?: number) {}

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    const current = this.current(key, nowMs, windowMs);
    const allowed = current.count < limit;
    if (allowed) current.count++;
    this.counts.set(key, current);
    return { allowed, count: current.count, oldestMs: current.start };
  }

  async peek(key: string, nowMs: number, windowMs: number) {
    const current = this.current(key, nowMs, windowMs);
    return { count: current.count, oldestMs: current.start };
  }

  async close(): Promise<void> {}

  private current(key: string, nowMs: number, windowMs: number) {
    if (!this.phase.has(key)) this.phase.set(key, this.leadMs === undefined ? 0 : nowMs - this.leadMs);
    const phase = this.phase.get(key) ?? 0;
    const start = phase + Math.floor((nowMs - phase) / windowMs) * windowMs;
    const kept = this.counts.get(key);
    return kept?.start === start ? kept : { start, count: 0 };
  }
}

/**
 * The manifest as this limiter's target states it: its own window (the limit in force), so that
 * only the planted fault shows, not a manifest disagreeing with the limiter in front of it.
 */
function statingWindow(req: ProxiedRequest, res: ProxiedResponse, windowSeconds: number): string {
  if (req.pathname !== "/api/v1/meta" || res.status !== 200) return res.body;
  const body = JSON.parse(res.body) as { data: { rate_limit: { window_seconds: number } } };
  body.data.rate_limit.window_seconds = windowSeconds;
  return JSON.stringify(body);
}

/** The store each fault needs: the ones planted in the store itself, the reference's otherwise. */
function storeFor(fault: LimiterFault): RateLimitStore {
  if (fault === "counts-refused") return new CountsRefusedStore();
  if (fault === "leaky-bucket") return new LeakyBucketStore();
  if (fault === "fixed-window") return new FixedWindowStore();
  return new MemoryStore();
}

/**
 * The RateLimit-* headers this limiter states. The unseen variant sends none (its 429 keeps
 * Retry-After): only when refusals begin can tell what it counts.
 */
function countHeadersFor(fault: LimiterFault, decision: Decision): Record<string, string> {
  const headers = rateLimitHeaders(decision);
  if (fault !== "search-costs-two-unseen") return headers;
  return headers["Retry-After"] ? { "Retry-After": headers["Retry-After"] } : {};
}

/** The key the faulty limiter counts a request under. */
function limiterKey(fault: LimiterFault, req: ProxiedRequest): string {
  const forged = req.headers["x-forwarded-for"];
  // Behind a proxy that hides client IPs, every client is one to the limiter.
  if (fault === "counts-clients-together") return "everyone";
  if (fault === "trusts-forwarded-for" && typeof forged === "string") return forged;
  return req.client;
}

/** The faulty limiter's decision, or undefined when it does not count the request. */
async function decide(
  fault: LimiterFault,
  limiter: RateLimiter,
  req: ProxiedRequest,
  now: number,
): Promise<Decision | undefined> {
  const key = limiterKey(fault, req);
  if (req.method === "OPTIONS" && fault !== "counts-preflight") return undefined;
  if (fault === "skips-rss" && req.pathname === "/rss.php") return undefined;
  // One endpoint's requests take two units: the first is counted quietly.
  const costsTwo = fault === "search-costs-two" || fault === "search-costs-two-unseen";
  if (costsTwo && req.pathname === "/api/v1/search") await limiter.hit(key, now);
  return limiter.hit(key, now);
}

/** Served or refused otherwise than a correct limiter would, or another count stated: a client sees the fault. */
function deviates(decided: Decision | undefined, right: Decision | undefined): boolean {
  return (decided?.allowed ?? true) !== (right?.allowed ?? true) || decided?.remaining !== right?.remaining;
}

/** The 429 the reference server would send, with this limiter's counts. */
function refusal(
  spec: Spec,
  limiter: RateLimiter,
  req: ProxiedRequest,
  decided: Decision,
  counts: Record<string, string>,
) {
  return {
    status: spec.rateLimit.status,
    headers: {
      "content-type": PROBLEM_JSON,
      ...corsHeaders(spec.cors),
      ...counts,
      "cache-control": cacheControl(spec, spec.match(req.pathname)?.operation, spec.rateLimit.status),
    },
    body: JSON.stringify(rateLimited(spec, Math.max(1, decided.resetSeconds), limiter.policy)),
  };
}

/** An upstream answer with this limiter's RateLimit-* headers in place of the upstream's. */
function withOwnCounts(res: ProxiedResponse, counts: Record<string, string>, body: string): ProxiedResponse {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !/^ratelimit-/i.test(k)));
  return { ...res, headers: { ...headers, ...counts }, body };
}

/** Each upstream request from an address never used before, so the real limiter never fires. */
function freshUpstreamAddress(): string {
  const n = upstreamRequests++;
  return `127.201.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/**
 * The fault as a proxy mutation. `windowSeconds` may be shorter than the spec's so that a run
 * which waits out Retry-After stays short; the limit is the spec's.
 */
export function faultyLimiter(
  fault: LimiterFault,
  windowSeconds: number,
  options: { store?: RateLimitStore } = {},
): Mutation {
  const store = options.store ?? storeFor(fault);
  const ready = loadSpec().then((spec) => ({
    spec,
    limiter: new RateLimiter(store, { limit: spec.rateLimit.limit, windowSeconds }),
    // A correct limiter of the same limit and window beside it (every request but a preflight
    // counted once, per client address): the requests it decides otherwise show the fault took effect.
    correct: new RateLimiter(new MemoryStore(), { limit: spec.rateLimit.limit, windowSeconds }),
  }));
  // What this limiter counted for a served request: its RateLimit-* headers replace the upstream's.
  const served = new WeakMap<ProxiedRequest, Decision>();
  const deviations = new WeakSet<ProxiedRequest>();
  return {
    deviated: (req) => deviations.has(req),
    response(req, res) {
      const decision = served.get(req);
      if (!decision) return res;
      return withOwnCounts(res, countHeadersFor(fault, decision), statingWindow(req, res, windowSeconds));
    },
    upstreamAddress: freshUpstreamAddress,
    async admit(req) {
      const { spec, limiter, correct } = await ready;
      const now = Date.now();
      const right = req.method === "OPTIONS" ? undefined : await correct.hit(req.client, now);
      const decided = await decide(fault, limiter, req, now);
      if (decided?.allowed) served.set(req, decided);
      if (deviates(decided, right)) deviations.add(req);
      if (!decided || decided.allowed) return undefined;
      return refusal(spec, limiter, req, decided, countHeadersFor(fault, decided));
    },
  };
}
