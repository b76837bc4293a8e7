export interface Slot {
  address: string | undefined;
  /** The answer came back at this time: the slot stays taken a window from then. */
  release(receivedAtMs: number): void;
  /** The server did not count the request: the slot is free again. */
  cancel(): void;
}

/**
 * Keeps every source address under the advertised rate. A request occupies a slot of its
 * address from the moment it leaves until `windowSeconds` (+ a margin) after its answer came
 * back, so clock offsets and in-flight time can only make us slower than the server's window,
 * never faster. An address that got a 429 or `RateLimit-Remaining: 0` rests until it may ask again.
 */
export class Pacer {
  /** Slot objects are shared between the pruned lists, so a release always reaches the live one. */
  private readonly slots = new Map<string, { end: number }[]>();
  private readonly restUntil = new Map<string, number>();
  private readonly marginMs = 1000;
  /** Set when the target counts every source address as one client: all share one window. */
  private pooled = false;

  constructor(
    private readonly addresses: (string | undefined)[],
    private limit: number,
    private windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The window in force, ms. */
  get windowMs(): number {
    return this.windowSeconds * 1000;
  }

  /** The per-address limit in force. */
  get currentLimit(): number {
    return this.limit;
  }

  /** The rate learnt from the target's meta, when stricter than the spec's. */
  setRate(limit: number, windowSeconds: number): void {
    this.limit = limit;
    this.windowSeconds = windowSeconds;
  }

  private key(address: string | undefined): string {
    return this.pooled ? "*" : (address ?? "");
  }

  /**
   * From now on every address shares one window (the target counts them together: a proxy that
   * hides client IPs). What each address has in flight or in its window moves to the shared one.
   */
  pool(): void {
    if (this.pooled) return;
    const shared = [...this.slots.values()].flat();
    const rest = Math.max(0, ...this.restUntil.values());
    this.pooled = true;
    this.slots.clear();
    this.slots.set("*", shared);
    this.restUntil.clear();
    this.restUntil.set("*", rest);
  }

  /** Requests `address` may still send in the current window (in-flight ones count as sent). */
  free(address: string | undefined): number {
    const t = this.now();
    if ((this.restUntil.get(this.key(address)) ?? 0) > t) return 0;
    return Math.max(0, this.limit - this.occupied(address).length);
  }

  /** Requests of `address` inside the current window (in flight included). */
  inWindow(address: string | undefined): number {
    return this.occupied(address).length;
  }

  /** Slots (end times, ms) still occupied for an address; Infinity while in flight. */
  private occupied(address: string | undefined): { end: number }[] {
    const t = this.now();
    const list = (this.slots.get(this.key(address)) ?? []).filter((slot) => slot.end > t);
    this.slots.set(this.key(address), list);
    return list;
  }

  /** Milliseconds until `address` may send one more request (0 = now). */
  waitFor(address: string | undefined): number {
    const t = this.now();
    const rest = Math.max(0, (this.restUntil.get(this.key(address)) ?? 0) - t);
    const list = this.occupied(address);
    if (list.length < this.limit) return rest;
    const finite = list
      .map((slot) => slot.end)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const freeAt = finite[list.length - this.limit];
    return Math.max(rest, freeAt === undefined ? 50 : freeAt - t);
  }

  /**
   * Takes a slot on the least-loaded address that has one, waiting as little as possible;
   * undefined when no slot frees before `until` (ms).
   */
  async acquire(
    sleep: (ms: number) => Promise<void>,
    only?: string,
    until = Number.POSITIVE_INFINITY,
  ): Promise<Slot | undefined> {
    for (;;) {
      const pool = only !== undefined ? [only] : this.addresses;
      // The least-loaded address that may send now: load spread evenly leaves every address
      // far from the limit, which also absorbs what an earlier run left in the server's window.
      let best: string | undefined;
      let bestWait = Number.POSITIVE_INFINITY;
      let bestLoad = Number.POSITIVE_INFINITY;
      for (const a of pool) {
        const w = this.waitFor(a);
        const load = this.occupied(a).length;
        if (w < bestWait || (w === bestWait && load < bestLoad)) {
          best = a;
          bestWait = w;
          bestLoad = load;
        }
      }
      if (bestWait === 0) return this.take(best);
      if (this.now() + bestWait > until) return undefined;
      await sleep(Math.min(bestWait, 1000));
    }
  }

  /** Records a request that bypassed `acquire` (the deliberate burst) so others stay clear of it. */
  take(address: string | undefined): Slot {
    const slot = { end: Number.POSITIVE_INFINITY };
    this.occupied(address).push(slot);
    return {
      address,
      release: (receivedAtMs) => {
        slot.end = receivedAtMs + this.windowSeconds * 1000 + this.marginMs;
      },
      // A request the server did not count (a refused one, when counts_refused is false).
      cancel: () => {
        slot.end = 0;
      },
    };
  }

  /**
   * The server's own count (RateLimit-Remaining) wins when it is lower than ours: requests of an
   * earlier run, or of someone else behind the same address, still sit in its window. The
   * difference is held as slots that free a full window from now.
   */
  observe(address: string | undefined, remaining: number): void {
    const list = this.occupied(address);
    const missing = this.limit - remaining - list.length;
    const end = this.now() + this.windowSeconds * 1000 + this.marginMs;
    for (let i = 0; i < missing; i++) list.push({ end });
  }

  /** The server told us to wait (Retry-After, or no request left until RateLimit-Reset); never beyond a window. */
  rest(address: string | undefined, seconds: number): void {
    const until = this.now() + Math.min(seconds, this.windowSeconds) * 1000 + this.marginMs;
    const k = this.key(address);
    this.restUntil.set(k, Math.max(this.restUntil.get(k) ?? 0, until));
  }

  /** Milliseconds until nothing of this address is inside the window any more. */
  idleIn(address: string | undefined): number {
    const t = this.now();
    const list = this.occupied(address);
    const rest = Math.max(0, (this.restUntil.get(this.key(address)) ?? 0) - t);
    if (list.length === 0) return rest;
    return Math.max(rest, Math.max(...list.map((slot) => (Number.isFinite(slot.end) ? slot.end - t : 100))));
  }
}
