import type { Answer } from "../routes/context.ts";

/**
 * Whole answers of public operations, by request (scheme and host, then the raw URL), for the second and the
 * data state they were computed in: an answer depends on nothing else (the handlers read the
 * clock in whole seconds, and the data through the store, whose change stamp names every write,
 * live inserts and imports included). Identical requests within that second skip the parameter
 * parsing and validation; a request first seen in this second and data state (e.g. a new search)
 * is always computed. Answers of secured operations depend on the account and are never kept.
 * Kept from a request's second computation in the second, not its first: most requests never
 * come again within their second (a new search), and an answer kept until the second ends was
 * alive at the next young-generation collection, which moves it (and its body's memory, outside
 * V8's heap) to the old generation, where only a full collection frees it: 10 KB per search
 * answer, a full collection of 10 ms or more every few thousand (bench/README.md, finding 14).
 * Bounded: emptied when a new second or data state starts, and when full.
 */
export class AnswerCache {
  // By base URL, then raw URL: no key string is built per request, and a base URL is one string
  // object for many requests (its hash is kept with it).
  private readonly answers = new Map<string, Map<string, Answer>>();
  /** Requests computed once in this second and data state: the next computation is kept. */
  private readonly once = new Map<string, Set<string>>();
  private count = 0;
  private onceCount = 0;
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
    if (!this.seenBefore(baseUrl, url)) return;
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

  /** Whether the request was computed before in this second and state; remembers it when not. */
  private seenBefore(baseUrl: string, url: string): boolean {
    let urls = this.once.get(baseUrl);
    if (urls?.has(url)) return true;
    if (this.onceCount >= this.maxEntries) {
      this.once.clear();
      this.onceCount = 0;
      urls = undefined;
    }
    if (urls === undefined) {
      urls = new Set();
      this.once.set(baseUrl, urls);
    }
    urls.add(url);
    this.onceCount++;
    return false;
  }

  get size(): number {
    return this.count;
  }

  private clear(): void {
    this.answers.clear();
    this.count = 0;
    this.once.clear();
    this.onceCount = 0;
  }
}
