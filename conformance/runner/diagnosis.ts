/**
 * What unexpected 429s say about the target. The runner never exceeds the advertised rate per
 * client address, so a 429 outside the burst has a cause worth one clear line, not one line per
 * refusal: requests from several client addresses counted together (a proxy in front that hides
 * client IPs, or a limiter that counts all clients as one), a limit lower than advertised or a
 * client IP shared with others, or a target that refuses this client altogether.
 */
import { storageEvidence } from "../http/cache-evidence.ts";
import type { Pacer } from "../http/pacer.ts";
import type { Exchange } from "../types.ts";

export type Reaction = "rest" | "stop";

export class RateDiagnosis {
  /** Set once the target is seen counting several client addresses together. */
  countedTogether = false;
  /** Set when the target refused even after a whole window of rest: nothing more is sent. */
  refusesClient?: string;
  readonly notes: string[] = [];
  private refusals = 0;
  private lastRefusalAt = 0;
  private cachedRefusals = 0;

  constructor(
    private readonly rate: () => { limit: number; windowSeconds: number },
    private readonly log: (line: string) => void,
    /**
     * Spread runs: one request from a client address the run has not used, true when it is refused
     * too (then the target counts different client IPs together). Absent from one address.
     */
    private readonly probeFreshAddress?: () => Promise<boolean>,
  ) {}

  private note(line: string): void {
    this.notes.push(line);
    this.log(line);
  }

  /** A 429 the pacing did not expect, from `address`; the pacer already holds the request's slot. */
  async unexpected(e: Exchange, pacer: Pacer, address: string | undefined): Promise<Reaction> {
    const { limit, windowSeconds } = this.rate();
    // A 429 a cache gave from its storage is another client's refusal replayed: it says nothing of
    // how this address is counted, so it neither probes nor pools the addresses (a fresh address
    // asking the same URL would get the same stored refusal).
    const stored = storageEvidence(e);
    if (stored.length > 0) {
      if (this.cachedRefusals++ === 0)
        this.note(
          `rate limit: a 429 came from a cache's storage (${stored.join("; ")}), not from a limiter counting this client: ` +
            "the address rests for its Retry-After; the addresses are still paced apart",
        );
      return "rest";
    }
    const now = e.receivedAt * 1000;
    // Refused again although the address rested a whole window since the last refusal.
    const afterRest = this.refusals > 0 && now - this.lastRefusalAt > windowSeconds * 1000;
    this.refusals++;
    this.lastRefusalAt = now;
    const own = pacer.inWindow(address);
    if (this.refusals === 1 && this.probeFreshAddress) {
      // Refused from one address: a client IP the run never used tells whether the count is this
      // address's (an earlier run used it) or everybody's.
      if (await this.probeFreshAddress()) {
        this.countedTogether = true;
        pacer.pool();
        this.note(
          `rate limit: refused after ${own} requests from ${address ?? "this address"}, and a client address never used before was refused too: ` +
            "the target counts different client IPs together (a proxy in front that hides client IPs, or a limiter " +
            "that counts all clients as one); the run goes on paced as one client",
        );
      } else {
        this.note(
          `rate limit: ${address ?? "this address"} was refused while a client address never used before is served: ` +
            "requests from before this run (an earlier run) still filled its window; it rests for its Retry-After",
        );
      }
      return "rest";
    }
    if (afterRest && this.refusals >= 3) {
      this.refusesClient = `the target refused ${this.refusals} requests, the last after a whole ${windowSeconds}-second window of rest: it refuses this client`;
      this.note(`rate limit: ${this.refusesClient}; nothing more is sent`);
      return "stop";
    }
    if (this.refusals === 1) {
      this.note(
        `rate limit: refused after ${own} requests in the window although the target advertises ${limit} per ` +
          `${windowSeconds} s: its limit is lower than advertised, or other clients share this IP (a NAT, a shared ` +
          "CI runner); the run follows its Retry-After and goes on",
      );
    }
    return "rest";
  }

  /** The closing note: how many refusals there were in all. */
  summary(unexpected: number): string | undefined {
    return unexpected > 0 ? `${unexpected} unexpected 429 answers outside the burst` : undefined;
  }
}

/**
 * The line saying how long the burst waits after going over the limit, true to what was received:
 * no 429 at all, a 429 that asked no wait, or the Retry-After it asked (never beyond the window).
 */
export function waitLine(refusal: Exchange | undefined, windowSeconds: number, knocks: number): string {
  const inIt = `(${knocks} refused requests in it)`;
  if (!refusal)
    return `rate limit: no request over the limit was refused (no 429): waiting the whole ${windowSeconds}-second window ${inIt}`;
  const said = refusal.headers["retry-after"];
  const ra = Number(said);
  if (said === undefined)
    return `rate limit: the 429 asked no wait (no Retry-After): waiting the whole ${windowSeconds}-second window ${inIt}`;
  if (!Number.isFinite(ra) || ra < 1)
    return `rate limit: the 429's Retry-After (${said}) is no number of seconds: waiting the whole ${windowSeconds}-second window ${inIt}`;
  const wait = Math.min(ra, windowSeconds);
  return `rate limit: waiting Retry-After ${wait} s${ra > wait ? ` (it said ${ra} s: never longer than the window)` : ""} ${inIt}`;
}
