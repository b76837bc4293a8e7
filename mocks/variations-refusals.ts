/**
 * The honest side of `rate-limited`: a client refused with Retry-After N is refused on every
 * request until N seconds have passed, and its first request after that is served (never drawn
 * for a new refusal), so a client that waits is served and one that retries at once is not.
 */
export class DrawnRefusals {
  /** Per client IP: when its refusal ends (epoch milliseconds). */
  private readonly until = new Map<string, number>();
  /** Clients whose refusal has ended and whose next request must be served. */
  private readonly released = new Set<string>();

  /** Whole seconds this client must still wait (>= 1), or undefined when it is not refused. */
  secondsLeft(ip: string, nowMs: number): number | undefined {
    const end = this.until.get(ip);
    if (end === undefined) return undefined;
    if (nowMs < end) return Math.max(1, Math.ceil((end - nowMs) / 1000));
    this.until.delete(ip);
    this.released.add(ip);
    return undefined;
  }

  /** Whether a new refusal may be drawn for this client (not on its first request after one). */
  mayRefuse(ip: string): boolean {
    return !this.released.delete(ip);
  }

  refuse(ip: string, nowMs: number, seconds: number): void {
    this.until.set(ip, nowMs + seconds * 1000);
  }
}
