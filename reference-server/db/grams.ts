import { foldLatin } from "../../src/rules/words.ts";

/**
 * Substring search through FTS5 without a CJK tokenizer.
 *
 * The spec's matching is a literal substring, case-insensitive for Latin letters only, and the
 * benchmark searches 2-character Chinese words. FTS5's trigram tokenizer cannot answer words of
 * fewer than 3 characters from its index, and LIKE scans every row. So each text is indexed as
 * one token per character position: the hex code point of the character, "x", and the hex code
 * point of the next one ("z" at the end). Tokens are plain ASCII, immune to spaces and
 * punctuation in the text.
 *
 * - A word of n >= 2 characters is the phrase of its n-1 bigram tokens: consecutive positions,
 *   so a phrase hit is exactly a substring hit.
 * - A word of 1 character is the prefix query `"<hex>x"*`: every position whose character it is
 *   (hex digits never contain "x", so the prefix cannot overrun into another code point).
 */
const hex = (c: string) => (c.codePointAt(0) as number).toString(16);

export function gramTokens(text: string): string {
  const codes = [...foldLatin(text)].map(hex);
  codes.push("z");
  let out = "";
  for (let i = 0; i + 1 < codes.length; i++) out += `${i === 0 ? "" : " "}${codes[i]}x${codes[i + 1]}`;
  return out;
}

/** The FTS5 expression matching one word as a substring of a column. */
export function wordExpression(word: string): string {
  const chars = [...foldLatin(word)];
  if (chars.length === 1) return `"${hex(chars[0] as string)}x"*`;
  const grams = chars.slice(1).map((c, i) => `${hex(chars[i] as string)}x${hex(c)}`);
  return `"${grams.join(" ")}"`;
}

/**
 * The one index token of a 2-character word (a single bigram), whose document count gram_docs
 * holds; undefined for other lengths (a longer word is a phrase of several, a 1-character word a
 * prefix query over many).
 */
export function singleToken(word: string): string | undefined {
  const chars = [...foldLatin(word)];
  return chars.length === 2 ? `${hex(chars[0] as string)}x${hex(chars[1] as string)}` : undefined;
}

/** The FTS5 expression matching any of the words (OR). Words must be non-empty. */
export function anyWordExpression(words: string[]): string {
  return words.map(wordExpression).join(" OR ");
}

/** Tokens of the facets column: every alert carries `all` and its category (`c<id>`). */
export function facetTokens(cateid: string): string {
  return `all c${cateid}`;
}

/** The distinct index tokens one alert holds: what gram_docs counts and term_docs lists. */
export function alertTokens(row: { title: string; content: string; cateid: string }): string[] {
  return distinctTokens(gramTokens(row.title), gramTokens(row.content), row.cateid);
}

/** alertTokens from the columns' tokens already made (gramTokens of title and content). */
export function distinctTokens(titleGrams: string, contentGrams: string, cateid: string): string[] {
  const all = `${titleGrams} ${contentGrams} ${facetTokens(cateid)}`;
  return [...new Set(all.split(" ").filter(Boolean))];
}
