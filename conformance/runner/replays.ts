/**
 * Answers a cache replays: one that repeats an earlier answer to the same URL in its Date,
 * RateLimit-Remaining and body, although it came seconds later, was not made again (a fresh
 * answer's Date is its own: one second of resolution cannot stay the same over two). A cache that
 * says nothing about itself (no Age, no X-Cache) gives itself away so; the report names that cause
 * (runner/causes.ts). Whatever the status: a cache that stores 429s replays one client's
 * refusal, its RateLimit-* headers with it, to every client asking the same URL, while a limiter's
 * own refusal seconds later has its own Date. Answers less than two seconds apart prove nothing (a
 * limiter that refills may well give two fresh answers the same RateLimit-Remaining within one second).
 */
import { createHash } from "node:crypto";
import type { Exchange } from "../types.ts";

/** Two answers this far apart cannot share a fresh Date. */
const APART_SECONDS = 2;

/** URLs remembered (their latest served answer each), most recent kept. */
const KEPT = 4096;

export class Replays {
  private readonly latest = new Map<string, { date: string; remaining: string; hash: string; at: number }>();

  /** How the answer repeats an earlier one, if it does; remembers it either way. */
  see(e: Exchange): string | undefined {
    const date = e.headers.date;
    const remaining = e.headers["ratelimit-remaining"];
    if (e.failure || !date || remaining === undefined) return undefined;
    const hash = createHash("sha1").update(e.text).digest("hex");
    const before = this.latest.get(e.url);
    const same = before?.date === date && before.remaining === remaining && before.hash === hash;
    this.latest.delete(e.url);
    // A repeat keeps the first one's time: the longer the same Date lasts, the surer the replay.
    this.latest.set(e.url, { date, remaining, hash, at: same && before ? before.at : e.receivedAt });
    if (this.latest.size > KEPT) this.latest.delete(this.latest.keys().next().value as string);
    if (!same || !before || e.receivedAt - before.at < APART_SECONDS) return undefined;
    return `the Date (${date}), RateLimit-Remaining (${remaining}) and body of the answer to the same URL ${Math.round(e.receivedAt - before.at)} s before`;
  }
}
