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

  constructor(
    private readonly addresses: (string | undefined)[],
    private limit: number,
    private windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

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
    return address ?? "";
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

  /** Takes a slot on the least-loaded address that has one, waiting as little as possible. */
  async acquire(
    sleep: (ms: number) => Promise<void>,
    only?: string,
  ): Promise<{ address: string | undefined; release: (receivedAtMs: number) => void }> {
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
      await sleep(Math.min(bestWait, 1000));
    }
  }

  /** Records a request that bypassed `acquire` (the deliberate burst) so others stay clear of it. */
  take(address: string | undefined): {
    address: string | undefined;
    release: (receivedAtMs: number) => void;
  } {
    const slot = { end: Number.POSITIVE_INFINITY };
    this.occupied(address).push(slot);
    return {
      address,
      release: (receivedAtMs) => {
        slot.end = receivedAtMs + this.windowSeconds * 1000 + this.marginMs;
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

  /** The server told us to wait (Retry-After, or no request left until RateLimit-Reset). */
  rest(address: string | undefined, seconds: number): void {
    const until = this.now() + seconds * 1000 + this.marginMs;
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
