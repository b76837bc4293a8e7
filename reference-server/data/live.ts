/**
 * Live data (`dealkit serve --live 5s`): the reference server's data moves the way a real
 * deal-alert site's does while a client watches it. Every tick a new alert arrives (a zdm item
 * every third tick), comments accrue on recent alerts (rank order shifts), and what falls out of
 * the retention span is removed. A conformance run against it meets the field's motion: answers
 * compared minutes apart differ, and must not be mistaken for faults.
 */
import type { Database } from "better-sqlite3";
import type { Category } from "../../src/spec/types.ts";
import { writeInfo } from "../db/meta.ts";
import { addAlerts, removeAlertsBefore, writeDataset } from "../db/write.ts";
import { categoryWeights, makeAlert, makeZdm, SPAN_SECONDS } from "./generate.ts";
import { Prng } from "./prng.ts";

export interface LiveOptions {
  /** Milliseconds between two new alerts. */
  everyMs: number;
  seed: number;
  nowSeconds: () => number;
  categories: Category[];
  zoneOffset: number;
  /** Called after each tick's transaction (Store.announceWrite: answers see the tick at once). */
  written?: () => void;
}

const ZDM_EVERY = 3;
/** Recent alerts that may get a comment on each tick. */
const RECENT = 50;

/** One tick of the live feed, in one transaction (readers see all of it or none). */
export function liveTick(db: Database, rng: Prng, o: LiveOptions, tick: number): void {
  const now = o.nowSeconds();
  const weights = categoryWeights(o.categories);
  const maxId = (table: string) =>
    (db.prepare(`SELECT max(id) AS id FROM ${table}`).get() as { id: number | null }).id ?? 0;
  db.transaction(() => {
    addAlerts(db, [
      makeAlert(
        rng,
        { nowSeconds: now, zoneOffset: o.zoneOffset },
        rng.weighted(weights),
        maxId("alerts") + 1,
        now,
      ),
    ]);
    if (tick % ZDM_EVERY === 0) writeDataset(db, { zdm: [makeZdm(rng, maxId("zdm_items") + 1, now)] });
    const recent = db
      .prepare<[number], { seq: number }>("SELECT seq FROM alerts ORDER BY seq DESC LIMIT ?")
      .all(RECENT);
    const commented = recent[rng.int(0, Math.max(0, recent.length - 1))];
    if (commented) db.prepare("UPDATE alerts SET comments = comments + 1 WHERE seq = ?").run(commented.seq);
    removeAlertsBefore(db, now - SPAN_SECONDS);
    db.prepare("DELETE FROM zdm_items WHERE posttime < ?").run(now - SPAN_SECONDS);
    // The data is current: the freshness shift (db/freshness.ts) must not move it again.
    writeInfo(db, { referenceTime: now });
  })();
}

/** Starts the live feed; the returned function stops it. */
export function startLive(db: Database, o: LiveOptions, onError: (err: unknown) => void): () => void {
  const rng = new Prng(o.seed);
  let tick = 0;
  const timer = setInterval(() => {
    try {
      liveTick(db, rng, o, ++tick);
    } catch (err) {
      onError(err);
    }
    // After a failed tick too: its transaction rolled back, but reading the state again is harmless.
    o.written?.();
  }, o.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
