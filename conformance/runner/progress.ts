/**
 * Where a run is, for the live line on a terminal: the phase (discovery, the burst, the wait
 * Retry-After asked for, the plan, fallbacks, exploration), the requests sent of those planned,
 * the findings so far and the time left within --max-time. The runner's phases say what they do;
 * the CLI draws it (cli: one updating line on a TTY; plain lines every 15 s otherwise, a countdown
 * during a wait: a line that repeats the same count reads as a hung run).
 */

export type ProgressPhase = "discovery" | "burst" | "waiting" | "plan" | "fallbacks" | "exploration";

export interface ProgressState {
  phase: ProgressPhase;
  /** Seconds the wait has left, and what it waits for, while waiting. */
  waitLeftSeconds?: number;
  waitingFor?: string;
  sent: number;
  /** Requests of the plan (discovery, burst and plan; the budget caps what exploration adds); 0 before the plan. */
  planned: number;
  failures: number;
  leftSeconds: number;
}

export class Progress {
  private phase: ProgressPhase = "discovery";
  private waitUntil: number | undefined;
  private waitingFor = "";
  planned = 0;

  constructor(
    private readonly counts: { sent(): number; failures(): number; deadline: number },
    /** Told at every change of phase, so that the line shows it at once (a timer shows the rest). */
    private readonly onChange: () => void = () => {},
    private readonly clock: () => number = Date.now,
  ) {}

  enter(phase: Exclude<ProgressPhase, "waiting">): void {
    if (this.phase === phase) return;
    this.phase = phase;
    this.waitUntil = undefined;
    this.onChange();
  }

  /**
   * The run waits until `until` (ms since the epoch) for `what` ("Retry-After", "the window of this
   * address to empty"); the phase it waited in goes on after (waited()).
   */
  waiting(until: number, what: string): void {
    if (this.phase !== "waiting") this.before = this.phase;
    this.phase = "waiting";
    this.waitUntil = until;
    this.waitingFor = what;
    this.onChange();
  }

  /** The wait is over: back to the phase it interrupted. */
  waited(): void {
    if (this.phase === "waiting") this.enter(this.before);
  }

  private before: Exclude<ProgressPhase, "waiting"> = "burst";

  state(): ProgressState {
    const now = this.clock();
    return {
      phase: this.phase,
      ...(this.phase === "waiting" && this.waitUntil !== undefined
        ? {
            waitLeftSeconds: Math.max(0, Math.ceil((this.waitUntil - now) / 1000)),
            waitingFor: this.waitingFor,
          }
        : {}),
      sent: this.counts.sent(),
      planned: this.planned > 0 ? Math.max(this.planned, this.counts.sent()) : 0,
      failures: this.counts.failures(),
      leftSeconds: Math.max(0, Math.ceil((this.counts.deadline - now) / 1000)),
    };
  }
}

const PHASE_WORDS: Record<ProgressPhase, string> = {
  discovery: "discovery",
  burst: "burst",
  waiting: "waiting",
  plan: "plan",
  fallbacks: "fallbacks",
  exploration: "exploration",
};

/** "waiting for Retry-After: 41 s left", while waiting. */
const waitWords = (s: ProgressState) =>
  `waiting for ${s.waitingFor || "the target"}: ${s.waitLeftSeconds} s left`;

/**
 * The plain line every 15 s when the output is not a terminal: a countdown while waiting, else the
 * requests sent and the time left, so that two lines in a row never read the same.
 */
export function plainProgressLine(s: ProgressState): string {
  const sent = `${s.sent} request${s.sent === 1 ? "" : "s"} sent`;
  return s.waitLeftSeconds !== undefined
    ? `  … ${waitWords(s)} (${sent})`
    : `  … ${PHASE_WORDS[s.phase]}: ${sent}, ${s.leftSeconds} s left within --max-time`;
}

/** The live line: "burst · 73/190 requests · 2 findings · 141 s left". */
export function progressLine(s: ProgressState): string {
  const phase = s.waitLeftSeconds !== undefined ? waitWords(s) : PHASE_WORDS[s.phase];
  const minutes = Math.floor(s.leftSeconds / 60);
  const left = minutes > 0 ? `${minutes} min ${s.leftSeconds % 60} s` : `${s.leftSeconds} s`;
  const sent = s.planned > 0 ? `${s.sent}/${s.planned}` : `${s.sent}`;
  return `${phase} · ${sent} requests · ${s.failures} finding${s.failures === 1 ? "" : "s"} · ${left} left`;
}
