import { foldLatin } from "../../src/rules/words.ts";

/**
 * Substring search without a CJK tokenizer: each text is indexed as one token per character
 * position: the hex code point of the character, "x", and the hex code point of the next one
 * ("z" at the end). Tokens are plain ASCII, immune to spaces and punctuation in the text. Each
 * token has the set of alerts holding it (term_docs, doc-index.ts); search (word-search.ts)
 * answers from these sets:
 *
 * - A word of 2 characters is exactly the set of its one bigram token.
 * - A word of 1 character is exactly the union of the sets of the tokens starting "<hex>x"
 *   (hex digits never contain "x", so the prefix cannot overrun into another code point).
 * - A word of 3 or more characters is a subset of the intersection of its bigram tokens' sets:
 *   the candidates, each checked against the row's text (as a trigram index verifies).
 */
const hex = (c: string) => (c.codePointAt(0) as number).toString(16);

/** The token of a character followed by another, or by the end of the text (undefined). */
export function gramToken(first: number, second: number | undefined): string {
  return `${first.toString(16)}x${second === undefined ? "z" : second.toString(16)}`;
}

export function gramTokens(text: string): string {
  const codes = [...foldLatin(text)].map(hex);
  codes.push("z");
  let out = "";
  for (let i = 0; i + 1 < codes.length; i++) out += `${i === 0 ? "" : " "}${codes[i]}x${codes[i + 1]}`;
  return out;
}

/**
 * The one index token of a 2-character word (a single bigram), whose set is exactly its matches;
 * undefined for other lengths.
 */
export function singleToken(word: string): string | undefined {
  const chars = [...foldLatin(word)];
  return chars.length === 2 ? `${hex(chars[0] as string)}x${hex(chars[1] as string)}` : undefined;
}

/** The bigram tokens of a word of 2 or more characters (grams of the text between them). */
export function wordGrams(word: string): string[] {
  const codes = [...foldLatin(word)].map(hex);
  return codes.slice(1).map((c, i) => `${codes[i]}x${c}`);
}

/** The prefix every token of a 1-character word starts with (its character, then "x"). */
export function charPrefix(word: string): string {
  return `${hex([...foldLatin(word)][0] as string)}x`;
}

/**
 * Tokens of the facets: every alert carries `all`, its category (`c<id>`) and each of its tags
 * (`t<tag>`, a tag may hold spaces). None is a gram token (those are hex digits, "x", hex digits).
 */
export function facetTokens(cateid: string, tags: string): string[] {
  return ["all", categoryToken(cateid), ...(JSON.parse(tags) as string[]).map(tagToken)];
}

export const categoryToken = (cateid: string) => `c${cateid}`;
export const tagToken = (tag: string) => `t${tag}`;

/**
 * The set of the alerts whose doc number is not above every earlier one's in time: an alert
 * imported or replaced after a newer one (word-search.ts walks doc numbers newest first).
 */
export const LATE_TOKEN = "late";

/** The distinct index tokens one alert holds: what term_docs lists. */
export function alertTokens(row: { title: string; content: string; cateid: string; tags: string }): string[] {
  return distinctTokens(gramTokens(row.title), gramTokens(row.content), row.cateid, row.tags);
}

/** alertTokens from the columns' tokens already made (gramTokens of title and content). */
export function distinctTokens(
  titleGrams: string,
  contentGrams: string,
  cateid: string,
  tags: string,
): string[] {
  const grams = `${titleGrams} ${contentGrams}`.split(" ").filter(Boolean);
  return [...new Set([...grams, ...facetTokens(cateid, tags)])];
}
