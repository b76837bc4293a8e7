import fc from "fast-check";
import { TypedFastBitSet } from "typedfastbitset";
import { describe, expect, it } from "vitest";
import { decodeGaps, encodeGaps, gapBytes } from "./doc-gaps.ts";
import { decodeDocs, encodeDocs, encodeSortedDocs, MAX_DOC, readDocs } from "./doc-sets.ts";

const ascending = (docs: number[]) => [...new Set(docs)].sort((a, b) => a - b);

describe("doc sets in the gap encoding", () => {
  it("round-trips any ascending doc numbers, gaps of every varint length included", () => {
    const doc = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: MAX_DOC }));
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 200 }), (raw) => {
        const docs = ascending(raw);
        const blob = encodeGaps(docs);
        expect(blob.byteLength).toBe(gapBytes(docs));
        expect([...decodeGaps(blob)]).toEqual(docs);
      }),
      { seed: 3, numRuns: 500 },
    );
  });

  it("stores each set in whichever encoding is smaller, and reads back the same set", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 3000 }), (raw) => {
        const docs = ascending(raw);
        const set = new TypedFastBitSet();
        for (const d of docs) set.add(d);
        const blob = encodeDocs(set.clone()) as Buffer;
        const sorted = encodeSortedDocs(Uint32Array.from(docs)) as Buffer;
        expect(sorted.equals(blob)).toBe(true);
        const words = Math.ceil((docs[docs.length - 1] as number) / 32 + 1 / 32);
        expect(blob.byteLength).toBe(Math.min(gapBytes(docs), words * 4 + 4));
        expect(decodeDocs(blob).array()).toEqual(docs);
        const read = readDocs(blob);
        expect(read instanceof Uint32Array ? [...read] : read.array()).toEqual(docs);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it("still reads a schema-4 list (sorted doc numbers, 4 bytes each, no marker)", () => {
    const old = Buffer.from(Uint32Array.from([3, 70, 900]).buffer);
    expect(decodeDocs(old).array()).toEqual([3, 70, 900]);
  });
});
