import type { DocSet } from "./doc-sets.ts";

/**
 * The docs of (any of `union`) ∩ (each of `required`) − (any of `excluded`), visited from the
 * highest down while `visit` returns true, without building the combined set: a page of a
 * common word at a million alerts needs its top few dozen docs, not a 125 KB copy of its set.
 * Bitsets are read a 32-bit word at a time; a sorted list (a sparse set) through a cursor
 * moving down with the walk, so each set costs what the walk passes of it.
 */
export function walkDescending(
  union: DocSet[],
  required: DocSet[],
  excluded: DocSet[],
  visit: (doc: number) => boolean,
): void {
  const u = union.length;
  const r = u + required.length;
  const parts: Part[] = new Array(r + excluded.length);
  for (let i = 0; i < u; i++) parts[i] = new Part(union[i] as DocSet);
  for (let i = u; i < r; i++) parts[i] = new Part(required[i - u] as DocSet);
  for (let i = r; i < parts.length; i++) parts[i] = new Part(excluded[i - r] as DocSet);
  let top = 0;
  for (let i = 0; i < u; i++) top = Math.max(top, (parts[i] as Part).words);
  for (let w = top - 1; w >= 0; w--) {
    let bits = 0;
    for (let i = 0; i < u; i++) bits |= (parts[i] as Part).at(w);
    if (bits === 0) continue;
    for (let i = u; i < r && bits !== 0; i++) bits &= (parts[i] as Part).at(w);
    for (let i = r; i < parts.length && bits !== 0; i++) bits &= ~(parts[i] as Part).at(w);
    while (bits !== 0) {
      const bit = 31 - Math.clz32(bits);
      if (!visit(w * 32 + bit)) return;
      bits &= ~(1 << bit);
    }
  }
}

/**
 * A set read one 32-bit word at a time, for word indexes that only go down: a bitset's word, or
 * the bits a sorted list's cursor passes. One small object per set per walk, with no closure
 * (each closure was an allocation, and a name defined on it where the sources run through tsx).
 */
class Part {
  /** How many words the set spans. */
  readonly words: number;
  private readonly bitset: Uint32Array | undefined;
  private readonly sorted: Uint32Array | undefined;
  private cursor: number;

  constructor(set: DocSet) {
    if (!(set instanceof Uint32Array)) {
      this.bitset = set.words;
      this.sorted = undefined;
      this.words = set.words.length;
      this.cursor = -1;
    } else {
      this.bitset = undefined;
      this.sorted = set;
      this.cursor = set.length - 1;
      this.words = set.length === 0 ? 0 : Math.floor((set[set.length - 1] as number) / 32) + 1;
    }
  }

  at(w: number): number {
    const bitset = this.bitset;
    if (bitset !== undefined) return bitset[w] ?? 0;
    const set = this.sorted as Uint32Array;
    const low = w * 32;
    let cursor = this.cursor;
    while (cursor >= 0 && (set[cursor] as number) >= low + 32) cursor--;
    let bits = 0;
    while (cursor >= 0 && (set[cursor] as number) >= low) bits |= 1 << ((set[cursor--] as number) - low);
    this.cursor = cursor;
    return bits;
  }
}
