import type { Answer } from "../routes/context.ts";

/**
 * Whole answers of public operations, by request (scheme and host, then the raw URL), for the second and the
 * data state they were computed in: an answer depends on nothing else (the handlers read the
 * clock in whole seconds, and the data through the store, whose change stamp names every write,
 * live inserts and imports included). Identical requests within that second skip the parameter
 * parsing and validation; a request first seen in this second and data state (e.g. a new search)
 * is always computed. Answers of secured operations depend on the account and are never kept.
 * Bounded: emptied when a new second or data state starts, and when full.
 */
export class AnswerCache {
  // By base URL, then raw URL: no key string is built per request, and a base URL is one string
  // object for many requests (its hash is kept with it).
  private readonly answers = new Map<string, Map<string, Answer>>();
  private count = 0;
  private second = Number.NaN;
  private stamp: unknown;

  constructor(readonly maxEntries: number) {}

  /** The kept answer for a request (base URL, raw URL), if computed in this second and data state. */
  lookup(baseUrl: string, url: string, second: number, stamp: unknown): Answer | undefined {
    if (second !== this.second || stamp !== this.stamp) {
      this.clear();
      this.second = second;
      this.stamp = stamp;
      return undefined;
    }
    return this.answers.get(baseUrl)?.get(url);
  }

  /** Keeps an answer computed in the state the last lookup named (its body already in bytes). */
  keep(baseUrl: string, url: string, answer: Answer): void {
    if (answer.operation?.secured) return;
    // Emptied rather than trimmed one by one: a Map's deleted slots cost every later lookup until
    // it rehashes, and the whole cache is rebuilt within a second anyway.
    if (this.count >= this.maxEntries) this.clear();
    let byUrl = this.answers.get(baseUrl);
    if (byUrl === undefined) {
      byUrl = new Map();
      this.answers.set(baseUrl, byUrl);
    }
    if (!byUrl.has(url)) this.count++;
    byUrl.set(url, answer);
  }

  get size(): number {
    return this.count;
  }

  private clear(): void {
    this.answers.clear();
    this.count = 0;
  }
}
