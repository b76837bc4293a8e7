/**
 * Time as the store failure policy sees it: wall-clock readings (for "since" in the store state)
 * and timers (command timeouts, background probes). Injected so that unit tests drive every
 * timeout and backoff by hand instead of sleeping. This is not the request clock of the limiter
 * (ServerOptions.now): tests freeze that one, and a frozen clock must not freeze the breaker.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    // A pending probe or timeout must never keep a finished process (a CLI run, a test) alive.
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class TimeoutError extends Error {
  override name = "TimeoutError";
}

/**
 * `work`, or a TimeoutError once `ms` have passed without an answer. The work itself is not
 * cancelled (a Redis command cannot be taken back); its late outcome is ignored, never unhandled.
 *
 * When the timer fires, the answer may already sit unread in the socket: each turn of Node's
 * event loop runs due timers before it reads I/O, so a process busy for longer than `ms` (a slow
 * query, a GC pause) would see every pending call time out although Redis answered at once. The
 * verdict therefore waits one more turn (a 0 ms timer runs after the next I/O poll): only an
 * answer that has really not arrived counts as a timeout.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, clock: Clock, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let grace: unknown;
    const timer = clock.setTimeout(() => {
      grace = clock.setTimeout(() => reject(new TimeoutError(`${what} did not answer within ${ms} ms`)), 0);
    }, ms);
    const stop = () => {
      clock.clearTimeout(timer);
      if (grace !== undefined) clock.clearTimeout(grace);
    };
    work.then(
      (value) => {
        stop();
        resolve(value);
      },
      (err: unknown) => {
        stop();
        reject(err);
      },
    );
  });
}
