/**
 * Sends requests for the runner: through the pacer (never above the advertised rate per source
 * address) or, for the deliberate burst, on one address unpaced; counting every request, reading
 * each answer against the spec, keeping score of failing endpoints. An unexpected 429 is handed
 * to the rate diagnosis, the address rests (never longer than the window), and the request goes
 * again once; nothing is ever retried at once.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { type AnswerLimits, DEFAULT_LIMITS, send as sendHttp } from "../http/client.ts";
import { acceptEncoding, ORIGIN, offersCodings } from "../http/client-headers.ts";
import type { Pacer, Slot } from "../http/pacer.ts";
import { type RawWireResponse, sendRaw } from "../http/raw-request.ts";
import type { Exchange, Phase, RequestCase } from "../types.ts";
import type { RateDiagnosis } from "./diagnosis.ts";
import { readExchange } from "./exchange.ts";
import type { Progress } from "./progress.ts";
import { Replays } from "./replays.ts";
import { MAX_TIME_REACHED, RunEnd } from "./stop.ts";
import { UnitCosts } from "./unit-costs.ts";

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
  /** A slot taken beforehand (the requests of a group, reserved together). */
  slot?: Slot;
  /** Seconds the client had waited since it was refused (the burst's wait). */
  waited?: number;
}

/** A request that was not sent: the budget is spent, the deadline came, or the target refuses this client. */
export class NotSent extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

/** What bounds the whole run. */
export interface RunBounds {
  /** Most requests of the run. */
  budget: number;
  /** The run's deadline and stop: no request waits for a slot beyond them. */
  end: RunEnd;
}

/** An answer may outlive the run's deadline by this much at most (a request sent just before it). */
const PAST_DEADLINE_MS = 20_000;

export class Transport {
  requests = 0;
  unexpected429 = 0;
  /** Operations whose last answers all failed: the rest of their requests are not sent. */
  readonly failing = new Map<string, string>();
  private readonly streak = new Map<string, number>();
  private preflights: { address: string | undefined; at: number }[] = [];
  private readonly replays = new Replays();
  /** What each operation costs in units of the limit, read from RateLimit-Remaining (rate-limit judges it). */
  readonly costs = new UnitCosts();
  private readonly cache = new Map<string, Promise<Exchange>>();

  private readonly limits: AnswerLimits;
  private readonly bounds: RunBounds;
  private readonly onExchange?: (exchange: Exchange) => void;
  private readonly seed: number;
  private readonly progress: Pick<Progress, "waiting" | "waited"> | undefined;

  constructor(
    private readonly spec: Spec,
    private readonly baseUrl: string,
    private readonly pacer: Pacer,
    private readonly diagnosis: RateDiagnosis,
    options: {
      limits?: AnswerLimits;
      bounds?: RunBounds;
      /** Sees every exchange as it comes, its whole body included (--record). */
      onExchange?: (exchange: Exchange) => void;
      /** The run's seed: which requests offer content codings. */
      seed?: number;
      /** Told when a request waits out an unexpected 429's Retry-After (the log's countdown). */
      progress?: Pick<Progress, "waiting" | "waited">;
    } = {},
  ) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.bounds = options.bounds ?? {
      budget: Number.POSITIVE_INFINITY,
      end: new RunEnd(Number.POSITIVE_INFINITY),
    };
    if (options.onExchange) this.onExchange = options.onExchange;
    this.progress = options.progress;
    this.seed = options.seed ?? 0;
  }

  /** The headers every browser sends: Origin always, and (on about half the requests) Accept-Encoding. */
  private asClientsSend(request: RequestCase): RequestCase {
    const codings: Record<string, string> = offersCodings(request, this.seed)
      ? { "accept-encoding": acceptEncoding(this.spec) }
      : {};
    return { ...request, headers: { origin: ORIGIN, ...codings, ...request.headers } };
  }

  /** Why no request may leave now, if so: checked when a slot is in hand, right before sending. */
  private refusal(): string | undefined {
    if (this.bounds.end.stopped) return this.bounds.end.reached();
    if (this.diagnosis.refusesClient) return this.diagnosis.refusesClient;
    if (this.requests >= this.bounds.budget) return `the request budget (${this.bounds.budget}) was spent`;
    return this.bounds.end.reached();
  }

  /** Waits for a slot, but not past the run's end: a stop ends the wait at once. */
  private readonly pause = async (ms: number) => {
    const cut = await this.bounds.end.sleep(ms);
    if (cut && this.bounds.end.stopped) throw new NotSent(cut);
  };

  /**
   * One request; a 429 outside the burst makes its address rest, and the request goes once more.
   * Throws NotSent when the budget, the deadline or a refusing target stops it.
   */
  async send(request: RequestCase, options: SendOptions): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      const slot =
        (attempt === 0 ? options.slot : undefined) ??
        (options.raw
          ? this.pacer.take(options.address)
          : await this.pacer.acquire(this.pause, options.address, this.bounds.end.deadline));
      if (attempt > 0) this.progress?.waited();
      const refusal = slot ? this.refusal() : MAX_TIME_REACHED;
      if (refusal || !slot) {
        slot?.cancel();
        throw new NotSent(refusal ?? "not sent", refusal === this.diagnosis.refusesClient);
      }
      const exchange = await this.once(request, slot, options);
      if (exchange.status !== this.spec.rateLimit.status || options.raw) return exchange;
      this.unexpected429++;
      const retryAfter = Number(exchange.headers["retry-after"]);
      if ((await this.diagnosis.unexpected(exchange, this.pacer, slot.address)) === "stop") return exchange;
      const rest = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60;
      this.pacer.rest(slot.address, rest);
      if (attempt >= 1) return exchange;
      this.progress?.waiting(Date.now() + rest * 1000, `the Retry-After of a 429 to ${request.pathname}`);
    }
  }

  private async once(request: RequestCase, slot: Slot, options: SendOptions): Promise<Exchange> {
    const req = this.asClientsSend(request);
    const windowIndex = this.pacer.inWindow(slot.address) - 1;
    const preflightsBefore = this.preflightsInWindow(slot.address);
    if (request.method === "OPTIONS") this.preflights.push({ address: slot.address, at: Date.now() });
    this.requests++;
    const deadlineMs = Math.min(
      this.limits.deadlineMs,
      Math.max(1000, this.bounds.end.deadline + PAST_DEADLINE_MS - Date.now()),
    );
    const flight = this.costs.begin(slot.address);
    const raw: RawWireResponse = await (request.wire ? sendRaw : sendHttp)(
      this.baseUrl,
      req,
      slot.address,
      { ...this.limits, deadlineMs },
      this.bounds.end.signal,
    );
    // Stopped while it was in flight: the answer was cut off by us, not by the target.
    if (this.bounds.end.stopped) throw new NotSent(this.bounds.end.reached() ?? "the run was stopped");
    const exchange: Exchange = {
      ...readExchange(this.spec, req, raw, slot.address),
      phase: options.phase,
      windowIndex,
      ...(preflightsBefore > 0 ? { preflightsBefore } : {}),
      ...(options.waited !== undefined ? { waited: options.waited } : {}),
      ...(raw.closed !== undefined ? { closed: raw.closed } : {}),
    };
    const replayed = this.replays.see(exchange);
    if (replayed) exchange.replayed = replayed;
    this.onExchange?.(exchange);
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
    // The server's own count, when it is to be believed: pacing follows it, and it tells what each request cost.
    const stated = Number(exchange.headers["ratelimit-remaining"] ?? Number.NaN);
    const remaining =
      !refused && describesPolicy(exchange, this.pacer.currentLimit) && Number.isInteger(stated)
        ? stated
        : undefined;
    this.costs.end(slot.address, flight, exchange, preflight ? undefined : remaining);
    if (remaining !== undefined) this.pacer.observe(slot.address, remaining);
    if (remaining === 0) {
      const reset = Number(exchange.headers["ratelimit-reset"]);
      this.pacer.rest(slot.address, Number.isFinite(reset) ? reset : 60);
    }
    return exchange;
  }

  /** Preflights an address sent within the last window (a reproduction sends them too). */
  private preflightsInWindow(address: string | undefined): number {
    const since = Date.now() - this.pacer.windowMs;
    this.preflights = this.preflights.filter((p) => p.at > since);
    return this.preflights.filter((p) => p.address === address).length;
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
    const key = JSON.stringify([
      request.method,
      request.pathname,
      request.query,
      request.rawQuery,
      request.headers,
    ]);
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.send(request, { phase });
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
    }
    return pending;
  }
}
