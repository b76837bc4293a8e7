/**
 * The two ways a run ends before its plan does: --max-time (the deadline) and a stop from outside
 * (SIGINT or SIGTERM, as an AbortSignal whose reason names it). Either way nothing more is sent,
 * every wait ends at once, and what was received is judged and reported.
 */
/** Why nothing more is sent once --max-time passed (the reason of every request it kept back). */
export const MAX_TIME_REACHED = "--max-time was reached";

export class RunEnd {
  constructor(
    /** Epoch ms after which nothing is sent. */
    readonly deadline: number,
    /** Aborted by the stop from outside (the answers in flight are aborted with it). */
    readonly signal?: AbortSignal,
  ) {}

  /** Why nothing more may be sent, if so. */
  reached(): string | undefined {
    if (this.signal?.aborted) return `the run was stopped (${String(this.signal.reason ?? "signal")})`;
    if (Date.now() >= this.deadline) return MAX_TIME_REACHED;
    return undefined;
  }

  /** True when the run was stopped from outside (its in-flight answers are not judged). */
  get stopped(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** Sleeps `ms`, never past the deadline and waking at once on a stop; why it was cut short, if it was. */
  sleep(ms: number): Promise<string | undefined> {
    // Already stopped: an abort event that has fired will not fire again.
    if (this.stopped) return Promise.resolve(this.reached());
    const room = Math.min(ms, this.deadline - Date.now());
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener("abort", done);
        resolve(room < ms || this.stopped ? (this.reached() ?? MAX_TIME_REACHED) : undefined);
      };
      const timer = setTimeout(done, Math.max(0, room));
      this.signal?.addEventListener("abort", done, { once: true });
    });
  }
}
