import { TypedFastBitSet } from "typedfastbitset";
import { type DocSet, unionInPlace } from "./doc-sets.ts";

/**
 * Counts |(⋃ any ∩ within) ∖ ⋃ none| over token sets (doc-sets.ts) in one bitset kept from
 * count to count, changed in place (TypedFastBitSet's union, intersection and difference):
 * nothing is allocated per count. A new union per count was a new array of maxDoc/32 words
 * (125 KB at 1M alerts) per first-seen search, and that external memory made V8 run full
 * mark-compacts (8–16 ms) in the middle of requests.
 */
export class SetCounter {
  private readonly scratch = new TypedFastBitSet();

  count(any: DocSet[], within: DocSet | undefined, none: DocSet[]): number {
    const only = any.length === 1 && within === undefined && none.length === 0 ? any[0] : undefined;
    if (only !== undefined) return only instanceof Uint32Array ? only.length : only.size();
    const s = this.scratch;
    // Indexed loops throughout: see addSorted (no iterator object per set or per doc).
    unionInPlace(s, any);
    if (within !== undefined && !(within instanceof Uint32Array)) s.intersection(within);
    for (let k = 0; k < none.length; k++) {
      const set = none[k] as DocSet;
      if (!(set instanceof Uint32Array)) s.difference(set);
      else {
        const words = s.words;
        for (let j = 0; j < set.length; j++) {
          const d = set[j] as number;
          const i = d >>> 5;
          if (i < words.length) words[i] = (words[i] as number) & ~(1 << d);
        }
      }
    }
    // A sparse `within` (a small category) is few docs: look each up instead of intersecting.
    if (within instanceof Uint32Array) {
      let n = 0;
      for (let j = 0; j < within.length; j++) if (s.has(within[j] as number)) n++;
      return n;
    }
    return s.size();
  }
}
