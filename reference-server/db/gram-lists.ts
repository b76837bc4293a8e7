import { foldLatin } from "../../src/rules/words.ts";
import { gramToken } from "./grams.ts";

/** The end of a text, as a character id (the token's second half is "z"). */
const END = 0;

/** Growable list of doc numbers, 4 bytes each (a bulk write of 1M alerts adds ~60M of them). */
export class DocList {
  docs: Uint32Array = new Uint32Array(16);
  length = 0;
  /** A list holding `docs` (ascending), taken as they are. */
  static of(docs: Uint32Array): DocList {
    const list = new DocList();
    list.docs = docs;
    list.length = docs.length;
    return list;
  }
  push(doc: number): void {
    // Writers add one alert's tokens together: a token repeated in it is the same last doc.
    if (this.length > 0 && this.docs[this.length - 1] === doc) return;
    if (this.length === this.docs.length) {
      const grown = new Uint32Array(this.docs.length * 2);
      grown.set(this.docs);
      this.docs = grown;
    }
    this.docs[this.length++] = doc;
  }
  view(): Uint32Array {
    return this.docs.subarray(0, this.length);
  }
}

/**
 * The docs of each gram token (grams.ts gramTokens) of the texts added, docs added in ascending
 * order. Kept by small ids of the token's two characters: a token string per gram per alert cost
 * more than the rest of a generation's write. Used by the count index (doc-index.ts) and by the
 * generator thread, which collects a generation's grams while the main thread writes its rows.
 */
export class GramLists {
  private readonly grams: (DocList | undefined)[][] = [];
  private readonly bmpIds = new Uint32Array(0x1_0000);
  private readonly charIds = new Map<number, number>();
  /** `codes[id]` is the character's code point. */
  private readonly codes: number[] = [-1];

  /** Puts the doc into the lists of the text's gram tokens. */
  addText(doc: number, text: string): void {
    const folded = foldLatin(text);
    let previous = -1;
    // By UTF-16 unit, pairing surrogates as string iteration does (a lone one is its own character).
    for (let i = 0; i < folded.length; i++) {
      let code = folded.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < folded.length) {
        const low = folded.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x1_0000 + (code - 0xd800) * 0x400 + (low - 0xdc00);
          i++;
        }
      }
      const id = this.charId(code);
      if (previous >= 0) this.addGram(doc, previous, id);
      previous = id;
    }
    if (previous >= 0) this.addGram(doc, previous, END);
  }

  /** A character's small id: from a table for the Basic Multilingual Plane, else a map. */
  private charId(code: number): number {
    let id = code < 0x1_0000 ? (this.bmpIds[code] as number) : (this.charIds.get(code) ?? 0);
    if (id === 0) {
      id = this.codes.length;
      this.codes.push(code);
      if (code < 0x1_0000) this.bmpIds[code] = id;
      else this.charIds.set(code, id);
    }
    return id;
  }

  private addGram(doc: number, first: number, second: number): void {
    let row = this.grams[first];
    if (row === undefined) {
      row = [];
      this.grams[first] = row;
    }
    let list = row[second];
    if (list === undefined) {
      list = new DocList();
      row[second] = list;
    }
    list.push(doc);
  }

  /** Every token's list, by its token string; then empties the lists (character ids stay). */
  *drain(): Generator<[string, DocList]> {
    for (const [first, row] of this.grams.entries()) {
      for (const [second, list] of (row ?? []).entries()) {
        if (list === undefined) continue;
        yield [gramToken(this.codes[first] as number, second === END ? undefined : this.codes[second]), list];
      }
    }
    this.grams.length = 0;
  }
}
