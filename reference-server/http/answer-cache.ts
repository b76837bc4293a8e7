import type { Answer } from "../routes/context.ts";

/**
 * Whole answers of public operations, by request (scheme, host and URL), for the second and the
 * data state they were computed in: an answer depends on nothing else (the handlers read the
 * clock in whole seconds, and the data through the store, whose change stamp names every write,
 * live inserts and imports included). Identical requests within that second skip the parameter
 * parsing and validation; a request first seen in this second and data state (e.g. a new search)
 * is always computed. Answers of secured operations depend on the account and are never kept.
 * Bounded: emptied when a new second or data state starts, and when full.
 */
export class AnswerCache {
  private readonly answers = new Map<string, Answer>();
  private second = Number.NaN;
  private stamp: unknown;

  constructor(readonly maxEntries: number) {}

  /** The kept answer for `key`, if it was computed in this second and data state. */
  lookup(key: string, second: number, stamp: unknown): Answer | undefined {
    if (second !== this.second || stamp !== this.stamp) {
      this.answers.clear();
      this.second = second;
      this.stamp = stamp;
      return undefined;
    }
    return this.answers.get(key);
  }

  /** Keeps an answer computed in the state the last lookup named (its body already in bytes). */
  keep(key: string, answer: Answer): void {
    if (answer.operation?.secured) return;
    // Emptied rather than trimmed one by one: a Map's deleted slots cost every later lookup until
    // it rehashes, and the whole cache is rebuilt within a second anyway.
    if (this.answers.size >= this.maxEntries) this.answers.clear();
    this.answers.set(key, answer);
  }

  get size(): number {
    return this.answers.size;
  }
}
