import type { WordsSyntax } from "../spec/types.ts";

/**
 * Splits a word-list parameter (x-words): any separator splits, words are trimmed, empties dropped.
 * The trim set is ECMAScript's own (info.description "Characters and words" lists it; words.test.ts
 * holds the runtime to that list).
 */
export function splitWords(value: string, syntax: WordsSyntax): string[] {
  let words = [value];
  for (const sep of syntax.separators) words = words.flatMap((w) => w.split(sep));
  if (syntax.trim) words = words.map((w) => w.trim());
  if (syntax.drop_empty) words = words.filter((w) => w.length > 0);
  return words;
}

/** Lower-cases Latin letters only: matching is case-insensitive for A-Z, exact for every other script. */
export function foldLatin(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** True when the literal word occurs in the text (substring-ci-latin). */
export function containsWord(text: string, word: string): boolean {
  return foldLatin(text).includes(foldLatin(word));
}
