import fc from "fast-check";
import { TypedFastBitSet } from "typedfastbitset";
import { describe, expect, it } from "vitest";
import type { DocSet } from "./doc-sets.ts";
import { SetCounter } from "./set-count.ts";

/** A set of docs as the count index reads it: sparse (sorted doc numbers) or dense (a bitset). */
const docSet = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 300 }), fc.boolean())
  .map(([docs, dense]): DocSet => {
    const sorted = docs.sort((a, b) => a - b);
    return dense ? new TypedFastBitSet(sorted) : Uint32Array.from(sorted);
  });

const members = (s: DocSet) => new Set(s instanceof Uint32Array ? s : s.array());

describe("SetCounter", () => {
  it("counts (⋃ any ∩ within) ∖ ⋃ none like a count over JavaScript Sets, reusing its bitset", () => {
    // One counter for every run: what a count leaves in its bitset must never leak into the next.
    const counter = new SetCounter();
    fc.assert(
      fc.property(
        fc.array(docSet, { minLength: 1, maxLength: 3 }),
        fc.option(docSet, { nil: undefined }),
        fc.array(docSet, { maxLength: 2 }),
        (any, within, none) => {
          const inWithin = within && members(within);
          const blocked = new Set(none.flatMap((s) => [...members(s)]));
          const expected = new Set(any.flatMap((s) => [...members(s)]));
          const n = [...expected].filter((d) => (!inWithin || inWithin.has(d)) && !blocked.has(d)).length;
          const before = any.map((s) => [...members(s)]);
          expect(counter.count(any, within, none)).toBe(n);
          // The sets given are the cache's: never changed.
          expect(any.map((s) => [...members(s)])).toEqual(before);
        },
      ),
      { seed: 11, numRuns: 500 },
    );
  });
});
