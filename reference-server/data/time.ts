import { zoneOffsetSeconds } from "../../src/rules/windows.ts";

/**
 * The real site's `datetime` (YYYY-MM-DD) and `shorttime` (HH:mm) in the spec's time zone.
 * The zone offset is looked up once per call site (Asia/Shanghai has had no DST since 1991).
 */
export function localStamp(
  unixSeconds: number,
  offsetSeconds: number,
): { datetime: string; shorttime: string } {
  const local = unixSeconds + offsetSeconds;
  if (!Number.isInteger(local) || local < 0) {
    const iso = new Date(local * 1000).toISOString();
    return { datetime: iso.slice(0, 10), shorttime: iso.slice(11, 16) };
  }
  // A generation formats a million of these: the date is formatted once per day, the time
  // from the seconds into the day (what toISOString gives for whole seconds after 1970).
  const day = Math.floor(local / 86_400);
  let datetime = DAYS.get(day);
  if (datetime === undefined) {
    datetime = new Date(day * 86_400_000).toISOString().slice(0, 10);
    if (DAYS.size > 10_000) DAYS.clear();
    DAYS.set(day, datetime);
  }
  const minute = Math.floor((local - day * 86_400) / 60);
  return { datetime, shorttime: `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}` };
}

const DAYS = new Map<number, string>();
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

export function offsetFor(timeZone: string, unixSeconds: number): number {
  return zoneOffsetSeconds(unixSeconds, timeZone);
}

/** YYYY-MM-DD of an instant in the zone. */
export function localDate(unixSeconds: number, offsetSeconds: number): string {
  return localStamp(unixSeconds, offsetSeconds).datetime;
}
