import { zoneOffsetSeconds } from "../../src/rules/windows.ts";

/**
 * The real site's `datetime` (YYYY-MM-DD) and `shorttime` (HH:mm) in the spec's time zone.
 * The zone offset is looked up once per call site (Asia/Shanghai has had no DST since 1991).
 */
export function localStamp(
  unixSeconds: number,
  offsetSeconds: number,
): { datetime: string; shorttime: string } {
  const iso = new Date((unixSeconds + offsetSeconds) * 1000).toISOString();
  return { datetime: iso.slice(0, 10), shorttime: iso.slice(11, 16) };
}

export function offsetFor(timeZone: string, unixSeconds: number): number {
  return zoneOffsetSeconds(unixSeconds, timeZone);
}

/** YYYY-MM-DD of an instant in the zone. */
export function localDate(unixSeconds: number, offsetSeconds: number): string {
  return localStamp(unixSeconds, offsetSeconds).datetime;
}
