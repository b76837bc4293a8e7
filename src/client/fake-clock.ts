import type { Clock } from "./clock.ts";

/** A clock for tests: sleeping moves time forward at once and is recorded. */
export function fakeClock(
  start = 1_795_644_000_000,
): Clock & { sleeps: number[]; advance(ms: number): void } {
  let t = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}
