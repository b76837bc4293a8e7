/**
 * fast-check arbitraries for one parameter, derived from its schema (type, bounds, enum,
 * pattern, maxLength) and x-words: valid values, invalid values, and the boundary values that
 * run first. Whether a value is valid is finally decided by parseRequest (the oracle), so an
 * arbitrary only needs to aim, not to be exact.
 */
import fc from "fast-check";
import type { Parameter } from "../../src/spec/types.ts";
import type { Vocabulary } from "./vocabulary.ts";

const price = (n: number) => String(Math.round(n * 100) / 100);

function bounds(p: Parameter): { min: number; max: number } {
  return { min: p.schema.minimum ?? 0, max: p.schema.maximum ?? 1_000_000 };
}

/** Values a conforming server must accept. */
export function validValue(p: Parameter, vocab: Vocabulary): fc.Arbitrary<string> {
  const s = p.schema;
  if (s.enum) return fc.constantFrom(...s.enum.map(String));
  if (s.type === "integer") {
    const { min, max } = bounds(p);
    return fc.integer({ min, max: Math.min(max, 1_000_000_000) }).map(String);
  }
  if (s.type === "number") {
    const { min, max } = bounds(p);
    return fc.oneof(
      fc.constantFrom(...vocab.prices.filter((x) => x >= min && x <= max).map(price)),
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map(price),
    );
  }
  if (p.words) {
    const word = fc.constantFrom(...vocab.words);
    return fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(...p.words.separators, " | "))
      .map(([words, sep]) => words.join(sep));
  }
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    return fc.oneof(fc.constantFrom(...vocab.activityCates, "nosuchcate"), fc.stringMatching(re));
  }
  const maxLength = s.maxLength ?? 50;
  return fc.oneof(
    fc.constantFrom(...vocab.tags),
    fc
      .string({ minLength: s.minLength ?? 1, maxLength: Math.min(maxLength, 20), unit: "grapheme" })
      .filter((x) => x.trim() !== ""),
  );
}

/** Values a conforming server must refuse with a 400 naming the parameter. */
export function invalidValue(p: Parameter): fc.Arbitrary<string> {
  const s = p.schema;
  const junk = fc.constantFrom("abc", "1.5", "1e2", "0x10", " 7", "NaN", "-");
  if (s.enum) {
    const first = String(s.enum[0]);
    return fc.oneof(
      fc.constantFrom(`${first}x`, first.toUpperCase() === first ? `x${first}` : first.toUpperCase(), "nope"),
      fc
        .string({ minLength: 1, maxLength: 8, unit: "grapheme-ascii" })
        .filter((x) => !s.enum?.map(String).includes(x) && x.trim() !== ""),
    );
  }
  if (s.type === "integer" || s.type === "number") {
    const { min, max } = bounds(p);
    return fc.oneof(
      fc.integer({ min: -1_000_000, max: min - 1 }).map(String),
      fc.integer({ min: max + 1, max: max + 1_000_000 }).map(String),
      s.type === "integer" ? fc.oneof(junk, fc.constant("2.5")) : fc.constantFrom("abc", "1,5", "1e2", "-1"),
    );
  }
  if (p.words) {
    const { max_words, max_word_length } = p.words;
    return fc.constantFrom(
      Array.from({ length: max_words + 1 }, (_, i) => `w${i}`).join(p.words.separators[1] ?? "|"),
      "x".repeat(max_word_length + 1),
      "y".repeat((s.maxLength ?? 200) + 1),
    );
  }
  if (s.pattern) return fc.constantFrom("Bad Cate", "x".repeat(40), "中文");
  return fc.constant("z".repeat((s.maxLength ?? 200) + 1));
}

/** Valid boundary values, run before any random value: min, min+1, default, max-1, max. */
export function validBoundaries(p: Parameter): string[] {
  const s = p.schema;
  if (s.enum) return s.enum.map(String);
  if (s.type !== "integer" && s.type !== "number") return [];
  const { min, max } = bounds(p);
  const values = [min, min + 1, s.default as number | undefined, max - 1, max];
  return [...new Set(values.filter((v): v is number => typeof v === "number" && v >= min && v <= max))].map(
    String,
  );
}

/** Invalid boundary values: min-1 (0 for limits), max+1, a non-integer, junk. */
export function invalidBoundaries(p: Parameter): string[] {
  const s = p.schema;
  if (s.enum) return ["nope", `${String(s.enum[0])}x`];
  if (s.type === "integer" || s.type === "number") {
    const { min, max } = bounds(p);
    return [String(min - 1), String(max + 1), s.type === "integer" ? "1.5" : "abc", "abc"].filter(
      (v, i, all) => all.indexOf(v) === i,
    );
  }
  if (p.words) return ["x".repeat(p.words.max_word_length + 1)];
  if (s.pattern) return ["Bad Cate"];
  if (s.maxLength !== undefined) return ["z".repeat(s.maxLength + 1)];
  return [];
}

/** A plain valid value for building fixed cases (the default, the minimum, the first enum value, a word). */
export function exampleValue(p: Parameter, vocab: Vocabulary): string {
  const s = p.schema;
  if (s.default !== undefined) return String(s.default);
  if (s.enum) return String(s.enum[0]);
  if (s.type === "integer") return String(s.minimum ?? 1);
  if (s.type === "number") return price(vocab.prices[0] ?? 10);
  if (p.words) return vocab.words[0] ?? "京东";
  if (s.pattern) return vocab.activityCates[0] ?? "waimai";
  return vocab.tags[0] ?? "x";
}
