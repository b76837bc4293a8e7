import type { Database } from "better-sqlite3";
import { readInfo, writeInfo } from "./meta.ts";

const DAY = 86_400;

/**
 * Generated data is relative to the instant it was generated. A database on disk ages: a week
 * later the one-hour and today windows would be empty. Instead of regenerating (slow at large
 * sizes, and it would change ids), generated data is moved forward in time by the age of its
 * reference time: every timestamp shifts by the same amount, dates are recomputed, activity
 * dates move by whole local days. Imported data is real and is never shifted.
 *
 * Returns the seconds shifted (0 when nothing was done; negative when the clock is behind the data).
 */
export function shiftIfStale(db: Database, nowSeconds: number, zoneOffset: number, minAge = 60): number {
  return db
    .transaction(() => {
      const info = readInfo(db);
      if (info.source !== "generated" || info.referenceTime === undefined) return 0;
      const delta = nowSeconds - info.referenceTime;
      // Backwards too: a cached image may be newer than an injected clock.
      if (Math.abs(delta) < minAge) return 0;
      db.prepare(
        `UPDATE alerts SET
           shijianchuo = shijianchuo + :delta,
           datetime = strftime('%Y-%m-%d', shijianchuo + :delta + :offset, 'unixepoch'),
           shorttime = strftime('%H:%M', shijianchuo + :delta + :offset, 'unixepoch')`,
      ).run({ delta, offset: zoneOffset });
      db.prepare("UPDATE zdm_items SET posttime = posttime + ?").run(delta);
      const localDay = (t: number) => Math.floor((t + zoneOffset) / DAY);
      const days = localDay(nowSeconds) - localDay(info.referenceTime);
      if (days !== 0) {
        db.prepare(
          `UPDATE activities SET
             start_time = date(start_time, :shift),
             end_time = CASE WHEN end_time IS NULL THEN NULL ELSE date(end_time, :shift) END`,
        ).run({ shift: `${days > 0 ? "+" : ""}${days} days` });
      }
      writeInfo(db, { referenceTime: nowSeconds });
      return delta;
    })
    .immediate();
}
