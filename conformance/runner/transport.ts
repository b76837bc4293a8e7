/**
 * Sends requests for the runner: through the pacer (never above the advertised rate per source
 * address) or, for the deliberate burst, on one address unpaced; counting every request, reading
 * each answer against the spec, keeping score of failing endpoints. An unexpected 429 is handed
 * to the rate diagnosis, the address rests (never longer than the window), and the request goes
 * again once; nothing is ever retried at once.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { type AnswerLimits, DEFAULT_LIMITS, send as sendHttp } from "../http/client.ts";
import type { Pacer, Slot } from "../http/pacer.ts";
import type { Exchange, Phase, RequestCase } from "../types.ts";
import type { RateDiagnosis } from "./diagnosis.ts";
import { readExchange } from "./exchange.ts";

/** Browsers send Origin on every cross-origin call; so does the suite, so CORS is judged as a browser sees it. */
export const ORIGIN = "https://conformance.dealkit.example";

/** Consecutive failed answers (no whole answer, or 5xx) after which an endpoint is left alone. */
const FAILING_AFTER = 3;

/**
 * RateLimit-Remaining is believed only when RateLimit-Limit (if sent) is the limit we pace by: a
 * static mock's placeholder headers (limit 1, remaining 0) would otherwise stall the run.
 */
export function describesPolicy(exchange: Exchange, limit: number): boolean {
  const stated = exchange.headers["ratelimit-limit"];
  return stated === undefined || Number(stated) === limit;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export interface SendOptions {
  phase: Phase;
  /** Send from this address; paced unless `raw`. */
  address?: string;
  /** The deliberate burst: no pacing (still recorded in the pacer, so nobody else uses the address meanwhile). */
  raw?: boolean;
}

/** A request that was not sent: no slot of the rate window freed before the run's deadline. */
export class NotSent extends Error {}

export class Transport {
  requests = 0;
  unexpected429 = 0;
  /** Operations whose last answers all failed: the rest of their requests are not sent. */
  readonly failing = new Map<string, string>();
  private readonly streak = new Map<string, number>();
  private readonly cache = new Map<string, Promise<Exchange>>();

  constructor(
    private readonly spec: Spec,
    private readonly baseUrl: string,
    private readonly pacer: Pacer,
    private readonly diagnosis: RateDiagnosis,
    private readonly limits: AnswerLimits = DEFAULT_LIMITS,
    /** The run's deadline (ms): no request waits for a slot beyond it. */
    private readonly deadline = Number.POSITIVE_INFINITY,
  ) {}

  private withOrigin(request: RequestCase): RequestCase {
    return { ...request, headers: { origin: ORIGIN, ...request.headers } };
  }

  /**
   * One request; a 429 outside the burst makes its address rest, and the request goes once more.
   * Throws NotSent when no slot frees before the run's deadline.
   */
  async send(request: RequestCase, options: SendOptions): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      const slot = options.raw
        ? this.pacer.take(options.address)
        : await this.pacer.acquire(sleep, options.address, this.deadline);
      if (!slot) throw new NotSent("--max-time was reached");
      const exchange = await this.once(request, slot, options.phase);
      if (exchange.status !== this.spec.rateLimit.status || options.raw) return exchange;
      this.unexpected429++;
      const retryAfter = Number(exchange.headers["retry-after"]);
      if (this.diagnosis.unexpected(exchange, this.pacer, slot.address) === "stop") return exchange;
      this.pacer.rest(slot.address, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60);
      if (attempt >= 1) return exchange;
    }
  }

  private async once(request: RequestCase, slot: Slot, phase: Phase): Promise<Exchange> {
    const req = this.withOrigin(request);
    const windowIndex = this.pacer.inWindow(slot.address) - 1;
    this.requests++;
    const raw = await sendHttp(this.baseUrl, req, slot.address, this.limits);
    const exchange = { ...readExchange(this.spec, req, raw, slot.address), phase, windowIndex };
    // What the server does not count (x-rate-limit) frees its slot at once: pacing stays exact.
    const refused = exchange.status === this.spec.rateLimit.status;
    const preflight = request.method === "OPTIONS";
    if (
      (refused && !this.spec.rateLimit.counts_refused) ||
      (preflight && !this.spec.rateLimit.counts_preflight)
    )
      slot.cancel();
    else slot.release(raw.receivedAt * 1000);
    this.keepScore(exchange);
    if (!refused && describesPolicy(exchange, this.pacer.currentLimit)) {
      const remaining = Number(exchange.headers["ratelimit-remaining"] ?? Number.NaN);
      if (Number.isInteger(remaining)) this.pacer.observe(slot.address, remaining);
      if (remaining === 0) {
        const reset = Number(exchange.headers["ratelimit-reset"]);
        this.pacer.rest(slot.address, Number.isFinite(reset) ? reset : 60);
      }
    }
    return exchange;
  }

  private keepScore(exchange: Exchange): void {
    const op = exchange.operation?.operationId;
    if (!op) return;
    const bad = exchange.failure !== undefined || exchange.status >= 500;
    const streak = bad ? (this.streak.get(op) ?? 0) + 1 : 0;
    this.streak.set(op, streak);
    if (streak >= FAILING_AFTER && !this.failing.has(op)) {
      const why = exchange.failure ? exchange.failure.message : `answered ${exchange.status}`;
      this.failing.set(op, `the endpoint failed ${streak} times in a row (last: ${why})`);
    }
  }

  /** Every answer the cache holds (the exploration's exchanges), for a final sweep of findings. */
  async cachedExchanges(): Promise<Exchange[]> {
    const settled = await Promise.allSettled(this.cache.values());
    return settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  }

  /** Same request, same answer within a run: shrinking and reruns of a property cost nothing twice. */
  cached(request: RequestCase, phase: Phase): Promise<Exchange> {
    const key = JSON.stringify([request.method, request.pathname, request.query, request.headers]);
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.send(request, { phase });
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
    }
    return pending;
  }
}
