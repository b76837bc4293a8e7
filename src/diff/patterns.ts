import { samplePattern } from "./regex-samples.ts";

/**
 * Whether a changed regex pattern accepts more or fewer strings. Regex inclusion is hard in
 * general; a witness is proof: a string the base pattern accepts and the head refuses shows the
 * head is narrower, and the reverse shows it is wider. Candidates are strings drawn from each
 * pattern itself (regex-samples.ts: what the new pattern lets through is the likeliest widening
 * witness), the same with a character before or after (anchors dropped or added), then a fixed
 * pool of characters, lengths around the patterns' own numbers, and the patterns' literal text.
 */
export interface PatternChange {
  /** A string base accepts and head refuses, if one was found. */
  lost?: string;
  /** A string head accepts and base refuses, if one was found. */
  gained?: string;
}

const CHARS = [..."aZ09_-./: ~%+#@中", "\t"];
const SAMPLES = [
  "https://example.com/a",
  "http://example.com/a",
  "//example.com",
  "2026-11-25",
  "10:32",
  "/problems/invalid-parameter",
  "",
];

export function comparePatterns(base: string, head: string): PatternChange | undefined {
  const rb = compile(base);
  const rh = compile(head);
  if (!rb || !rh) return undefined;
  const out: PatternChange = {};
  for (const s of candidates(base, head)) {
    const inB = rb.test(s);
    const inH = rh.test(s);
    if (inB && !inH) out.lost ??= s;
    if (inH && !inB) out.gained ??= s;
    if (out.lost !== undefined && out.gained !== undefined) break;
  }
  return out;
}

function compile(p: string): RegExp | undefined {
  try {
    return new RegExp(p, "u");
  } catch {
    return undefined;
  }
}

/** How many strings to draw from each pattern: enough to visit each alternative and bound. */
const DRAWS = 200;

function* candidates(...patterns: string[]): Generator<string> {
  for (const p of patterns) {
    for (const s of samplePattern(p, DRAWS) ?? []) {
      yield s;
      yield `x${s}`;
      yield `${s}x`;
    }
  }
  // Samples with their digits and letters swapped, so `^20[0-9]{2}` meets "1111".
  for (const s of SAMPLES) for (const d of ["", "0", "1", "9"]) yield d ? s.replace(/[0-9]/g, d) : s;
  for (const s of SAMPLES) yield s.replace(/[a-z]/g, "x").replace(/^x+/, "ftp");
  const numbers = patterns.flatMap((p) => [...p.matchAll(/\d+/g)].map((m) => Number(m[0])));
  const lengths = [...new Set([1, 2, 3, ...numbers.flatMap((n) => [n - 1, n, n + 1])])].filter(
    (n) => n > 0 && n <= 300,
  );
  for (const c of CHARS) for (const n of lengths) yield c.repeat(n);
  for (const a of CHARS) for (const b of CHARS) yield a + b;
  // The patterns' literal text (metacharacters dropped), alone and with each character appended.
  for (const p of patterns) {
    const literal = p.replace(/\\(.)/g, "$1").replace(/[\^$()[\]{}*+?|]/g, "");
    yield literal;
    for (const c of CHARS) yield literal + c;
  }
}
