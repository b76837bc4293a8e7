import { TypedFastBitSet } from "typedfastbitset";
import { decodeGaps, encodeGaps, GAPS, gapBytes, isGaps } from "./doc-gaps.ts";

/**
 * The alerts holding one index token, as stored in term_docs: a set of doc numbers (alerts.doc,
 * dense 32-bit numbers handed out at write time; see doc-index.ts).
 *
 * Stored in one of two encodings, whichever is smaller (the choice Roaring makes per 64k chunk,
 * made per set):
 * - gaps: varint gaps between the sorted doc numbers (doc-gaps.ts), about a byte a doc;
 * - dense: the bitset's 32-bit words (TypedFastBitSet, Daniel Lemire's typed-array bitset),
 *   after one marker word: a set holding more than about 1 doc in 8.
 * (Schema 4 wrote the sorted doc numbers, 4 bytes each, without a marker: still read.) In memory
 * a set holding more than 1 doc in 32 is a bitset, a sparser one its sorted doc numbers.
 * Words are in the machine's byte order (little-endian on every platform Node supports).
 *
 * Counting unions and differences of dense sets costs one pass over maxDoc/32 words whatever
 * the matches: about 0.1 ms at a million alerts.
 */
const DENSE = 0xffff_ffff;
/** The largest doc number a set can hold (the markers are not doc numbers). */
export const MAX_DOC = GAPS - 1;

export function encodeDocs(docs: TypedFastBitSet): Buffer | undefined {
  if (docs.size() === 0) return undefined;
  docs.trim();
  const sorted = docs.array();
  if (gapBytes(sorted) <= docs.words.length * 4 + 4) return encodeGaps(sorted);
  const out = new Uint32Array(docs.words.length + 1);
  out[0] = DENSE;
  out.set(docs.words, 1);
  return Buffer.from(out.buffer);
}

/** Encodes doc numbers known to be ascending and distinct (a fresh bulk write). */
export function encodeSortedDocs(docs: Uint32Array): Buffer | undefined {
  if (docs.length === 0) return undefined;
  const words = Math.ceil(((docs[docs.length - 1] as number) + 1) / 32);
  if (gapBytes(docs) <= words * 4 + 4) return encodeGaps(docs);
  const set = new TypedFastBitSet();
  for (const d of docs) set.add(d);
  return encodeDocs(set);
}

/** A set as read for counting: a bitset when stored dense, else its sorted doc numbers. */
export type DocSet = TypedFastBitSet | Uint32Array;

/**
 * Reads a stored set. A bitset or list whose bytes are 4-byte aligned in the blob (better-sqlite3
 * hands each blob over in its own new buffer, offset 0) is a view of the blob, not a copy: the
 * server reads every set when it starts (FastCounts.warm, 88 MB at a million alerts), and a copy
 * of each made as much again of short-lived external memory, which brought V8's full collections
 * on just as the first requests came. An unaligned blob is copied once.
 */
export function readDocs(blob: Uint8Array): DocSet {
  if (isGaps(blob)) {
    const docs = decodeGaps(blob);
    const last = docs[docs.length - 1] ?? 0;
    if (docs.length * 32 <= last + 64) return docs;
    // Exactly as many words as the stored bitset would have (a grown one has slack to walk).
    const bits = TypedFastBitSet.fromWords(new Uint32Array(Math.ceil((last + 1) / 32)));
    addSorted(bits, docs);
    return bits;
  }
  const dense =
    blob.byteLength >= 4 && blob[0] === 0xff && blob[1] === 0xff && blob[2] === 0xff && blob[3] === 0xff;
  const body = dense ? blob.subarray(4) : blob;
  let words: Uint32Array;
  if (body.byteOffset % 4 === 0) words = new Uint32Array(body.buffer, body.byteOffset, body.byteLength / 4);
  else {
    words = new Uint32Array(body.byteLength / 4);
    new Uint8Array(words.buffer).set(body);
  }
  return dense ? TypedFastBitSet.fromWords(words) : words;
}

/** A stored set as a bitset (which may be changed in place). */
export function decodeDocs(blob: Uint8Array): TypedFastBitSet {
  return asBitset(readDocs(blob));
}

/** The set as a bitset: itself when it is one, else a new one. */
export function asBitset(set: DocSet): TypedFastBitSet {
  if (!(set instanceof Uint32Array)) return set;
  const out = new TypedFastBitSet();
  addSorted(out, set);
  return out;
}

/**
 * Adds ascending doc numbers to a bitset: grown once to the last one, then a bit set per doc by
 * index. Searches call it on every sparse set they combine: the for-of loop and add() per doc it
 * replaces left an iterator result object per doc where V8 did not optimise the loop (12.7 KB of
 * garbage per first-seen OR search at a million alerts, sampled), and add() checked the size per doc.
 */
export function addSorted(out: TypedFastBitSet, docs: Uint32Array): void {
  const n = docs.length;
  if (n === 0) return;
  out.resize(docs[n - 1] as number);
  const words = out.words;
  for (let i = 0; i < n; i++) {
    const d = docs[i] as number;
    words[d >>> 5] = (words[d >>> 5] as number) | (1 << (d & 31));
  }
}

/**
 * Sets `out` to the union of the sets, in place: emptied, then each added (a sparse list by
 * addSorted, a bitset by TypedFastBitSet's union). Indexed loops: no iterator object per set.
 */
export function unionInPlace(out: TypedFastBitSet, sets: readonly DocSet[]): void {
  out.words.fill(0);
  for (let k = 0; k < sets.length; k++) {
    const set = sets[k] as DocSet;
    if (set instanceof Uint32Array) addSorted(out, set);
    else out.union(set);
  }
}
