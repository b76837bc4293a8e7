/**
 * Answers a cache replays: one that repeats an earlier answer to the same URL in its Date,
 * RateLimit-Remaining and body was not made again (a fresh answer counts this request, so its
 * RateLimit-Remaining moves, and its Date is its own). A cache that says nothing about itself (no
 * Age, no X-Cache) gives itself away so; the report names that cause (runner/causes.ts).
 */
import { createHash } from "node:crypto";
import type { Exchange } from "../types.ts";

/** URLs remembered (their latest served answer each), most recent kept. */
const KEPT = 4096;

export class Replays {
  private readonly latest = new Map<string, { date: string; remaining: string; hash: string; at: number }>();

  /** How the answer repeats an earlier one, if it does; remembers it either way. */
  see(e: Exchange): string | undefined {
    const date = e.headers.date;
    const remaining = e.headers["ratelimit-remaining"];
    if (e.failure || e.status < 200 || e.status >= 300 || !date || remaining === undefined) return undefined;
    const hash = createHash("sha1").update(e.text).digest("hex");
    const before = this.latest.get(e.url);
    this.latest.delete(e.url);
    this.latest.set(e.url, { date, remaining, hash, at: e.receivedAt });
    if (this.latest.size > KEPT) this.latest.delete(this.latest.keys().next().value as string);
    if (!before || before.date !== date || before.remaining !== remaining || before.hash !== hash)
      return undefined;
    return `the Date (${date}), RateLimit-Remaining (${remaining}) and body of the answer to the same URL ${Math.round(e.receivedAt - before.at)} s before`;
  }
}
