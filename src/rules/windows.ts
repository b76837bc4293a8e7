import type { RankWindows } from "../spec/types.ts";

export interface TimeRange {
  /** Unix seconds, inclusive. */
  from: number;
  /** Unix seconds, inclusive. */
  to: number;
}

const DAY = 86_400;

/**
 * One formatter per zone: building one costs about 150 µs, and the local-time rules ask for an
 * offset per item judged (two per alert, up to 300 alerts an answer).
 */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = FORMATTERS.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    FORMATTERS.set(timeZone, f);
  }
  return f;
}

/** Seconds to add to UTC to get the wall-clock time of `timeZone` at `unixSeconds`. */
export function zoneOffsetSeconds(unixSeconds: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(unixSeconds * 1000));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) / 1000;
  return wall - unixSeconds;
}

/** Unix seconds of local midnight `daysAgo` days before the local date of `now`. */
export function localMidnight(now: number, timeZone: string, daysAgo: number): number {
  const offset = zoneOffsetSeconds(now, timeZone);
  const todayStart = Math.floor((now + offset) / DAY) * DAY - offset;
  return todayStart - daysAgo * DAY;
}

/** The span of a rank window (x-rank-windows) at instant `now` (Unix seconds). */
export function windowRange(windows: RankWindows, act: string, now: number): TimeRange {
  const w = windows.windows[act];
  if (!w) throw new Error(`unknown rank window ${act}`);
  if (w.kind === "rolling") return { from: now - w.hours * 3600, to: now };
  const from = localMidnight(now, windows.timezone, w.days_ago);
  return { from, to: w.days_ago === 0 ? now : from + DAY - 1 };
}

/** The narrowest rank window (x-rank-windows) holding the time `t` at instant `now` (undefined: none). */
export function narrowestWindow(windows: RankWindows, t: number, now: number): string | undefined {
  const holding = Object.keys(windows.windows)
    .map((act) => ({ act, ...windowRange(windows, act, now) }))
    .filter((w) => w.from <= t && t <= w.to);
  return holding.sort((x, y) => x.to - x.from - (y.to - y.from))[0]?.act;
}

/**
 * The local date (YYYY-MM-DD) or time (HH:mm) of the instant `unixSeconds` in `timeZone`: the
 * minute it falls in, never rounded up (10:32:59 is 10:32), as a wall clock shows it.
 */
export function localStamp(unixSeconds: number, timeZone: string, format: "date" | "time"): string {
  // Judged per item, and the same alerts come back in many answers: one lookup per zone and minute.
  const minute = Math.floor(unixSeconds / 60) * 60;
  const key = `${timeZone} ${minute}`;
  let iso = STAMPS.get(key);
  if (iso === undefined) {
    iso = new Date((minute + zoneOffsetSeconds(minute, timeZone)) * 1000).toISOString();
    if (STAMPS.size > 100_000) STAMPS.clear();
    STAMPS.set(key, iso);
  }
  return format === "date" ? iso.slice(0, 10) : iso.slice(11, 16);
}

const STAMPS = new Map<string, string>();
