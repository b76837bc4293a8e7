/**
 * The servers' clock in the browser tests: real time, which the test can hold still and move
 * forward. The page's client waits in real time (its Retry-After sleeps), so the servers run on
 * real time too; holding it still while the page spends a window's budget makes the 429 certain
 * however slowly a loaded machine sends the burst, and moving it forward frees a window at once.
 */
export interface HeldClock {
  now(): number;
  /** Stops time where it is. */
  hold(): void;
  /**
   * Lets time run again, caught up: as if it had not been held. A client that got its 429 while
   * the clock was held started its Retry-After sleep then, so the server must count that time.
   */
  release(): void;
  /** Moves time forward. */
  advance(ms: number): void;
}

export function heldClock(): HeldClock {
  let ahead = 0;
  let heldAt: number | undefined;
  const now = () => heldAt ?? Date.now() + ahead;
  return {
    now,
    hold: () => {
      heldAt = now();
    },
    release: () => {
      heldAt = undefined;
    },
    advance: (ms) => {
      ahead += ms;
      if (heldAt !== undefined) heldAt += ms;
    },
  };
}
