/**
 * What unexpected 429s say about the target. The runner never exceeds the advertised rate per
 * client address, so a 429 outside the burst has a cause worth one clear line, not one line per
 * refusal: requests from several client addresses counted together (a proxy in front that hides
 * client IPs, or a limiter that counts all clients as one), a limit lower than advertised or a
 * client IP shared with others, or a target that refuses this client altogether.
 */
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
