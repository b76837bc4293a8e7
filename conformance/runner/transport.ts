/**
 * Sends requests for the runner: through the pacer (never above the advertised rate per source
 * address), honouring Retry-After and RateLimit-Remaining: 0 (never retrying at once), counting
 * every request, reading each answer against the spec.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { send as sendHttp, UnreachableError } from "../http/client.ts";
import type { Pacer } from "../http/pacer.ts";
import type { Exchange, RequestCase } from "../types.ts";
import { readExchange } from "./exchange.ts";

/** Browsers send Origin on every cross-origin call; so does the suite, so CORS is judged as a browser sees it. */
export const ORIGIN = "https://conformance.dealkit.example";

/**
 * RateLimit-Remaining is believed only when RateLimit-Limit (if sent) is the limit we pace by: a
 * static mock's placeholder headers (limit 1, remaining 0) would otherwise stall the run.
 */
export function describesPolicy(exchange: Exchange, limit: number): boolean {
  const stated = exchange.headers["ratelimit-limit"];
  return stated === undefined || Number(stated) === limit;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Transport {
  requests = 0;
  unexpected429 = 0;
  private readonly cache = new Map<string, Promise<Exchange>>();

  constructor(
    private readonly spec: Spec,
    private readonly baseUrl: string,
    private readonly pacer: Pacer,
    private readonly log: (line: string) => void,
  ) {}

  private withOrigin(request: RequestCase): RequestCase {
    return { ...request, headers: { origin: ORIGIN, ...request.headers } };
  }

  /** One paced request; a 429 makes its address rest for Retry-After, and the request goes again (3 tries). */
  async send(request: RequestCase, only?: string): Promise<Exchange> {
    const req = this.withOrigin(request);
    for (let attempt = 0; ; attempt++) {
      const slot = await this.pacer.acquire(sleep, only);
      let exchange: Exchange;
      try {
        exchange = readExchange(this.spec, req, await this.patient(req, slot.address), slot.address);
      } finally {
        slot.release(Date.now());
      }
      this.requests++;
      const limited = exchange.status === this.spec.rateLimit.status;
      const retryAfter = Number(exchange.headers["retry-after"]);
      if (limited) {
        this.unexpected429++;
        this.log(
          `unexpected ${exchange.status} from ${slot.address ?? "default address"}; resting ${exchange.headers["retry-after"] ?? "?"} s`,
        );
        this.pacer.rest(slot.address, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60);
        if (attempt < 2) continue;
      } else if (describesPolicy(exchange, this.pacer.currentLimit)) {
        const remaining = Number(exchange.headers["ratelimit-remaining"] ?? Number.NaN);
        if (Number.isInteger(remaining)) this.pacer.observe(slot.address, remaining);
        if (remaining === 0) {
          const reset = Number(exchange.headers["ratelimit-reset"]);
          this.pacer.rest(slot.address, Number.isFinite(reset) ? reset : 60);
        }
      }
      return exchange;
    }
  }

  /**
   * A dropped connection or a timeout on a busy machine is not yet an unreachable target: two
   * more tries, a second apart, before the run gives up (exit 2).
   */
  private async patient(req: RequestCase, address: string | undefined) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await sendHttp(this.baseUrl, req, address);
      } catch (err) {
        if (!(err instanceof UnreachableError) || attempt >= 2) throw err;
        this.log(`no answer (${err.message}); trying again in 1 s`);
        await sleep(1000);
      }
    }
  }

  /** The deliberate burst: no pacing, from one address; still recorded so nobody else uses it meanwhile. */
  async sendRaw(request: RequestCase, address: string | undefined): Promise<Exchange> {
    const req = this.withOrigin(request);
    const slot = this.pacer.take(address);
    try {
      return readExchange(this.spec, req, await sendHttp(this.baseUrl, req, address), address);
    } finally {
      slot.release(Date.now());
      this.requests++;
    }
  }

  /** Every answer the cache holds (the exploration's exchanges), for a final sweep of findings. */
  async cachedExchanges(): Promise<Exchange[]> {
    const settled = await Promise.allSettled(this.cache.values());
    return settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  }

  /** Same request, same answer within a run (GET on read-only data): shrinking and reruns cost nothing twice. */
  cached(request: RequestCase): Promise<Exchange> {
    const key = JSON.stringify([request.method, request.pathname, request.query, request.headers]);
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.send(request);
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
    }
    return pending;
  }
}
