import { describe, expect, it } from "vitest";
import { ImportInputError, type RawRecord, splitRecords } from "./import-read.ts";

/** The records of `text` fed in chunks of `size` bytes, each chunk's buffer overwritten after use. */
async function records(text: string | Buffer, size: number, max = 1024): Promise<RawRecord[]> {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const shared = Buffer.alloc(size);
  function* chunks() {
    for (let i = 0; i < bytes.length; i += size) {
      const n = bytes.copy(shared, 0, i, i + size);
      yield shared.subarray(0, n);
      shared.fill(0x3f); // what a reused read buffer does to any piece kept by mistake
    }
  }
  const out: RawRecord[] = [];
  for await (const r of splitRecords(chunks(), "f.json", max)) out.push(r);
  return out;
}

async function failure(text: string, size = 3): Promise<string> {
  const err = await records(text, size).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportInputError);
  return (err as Error).message;
}

const SIZES = [1, 2, 3, 7, 64, 4096];

describe("splitRecords", () => {
  it.each(SIZES)("cuts NDJSON into lines whatever the chunk size (%i bytes)", async (size) => {
    const text = '\ufeff{"a":"é"}\r\n\n  \n{"b":[1,2]}\nnope\n{"c":3}';
    expect(await records(text, size)).toEqual([
      { at: "line 1", line: 1, value: { a: "é" } },
      { at: "line 4", line: 4, value: { b: [1, 2] } },
      { at: "line 5", line: 5, reason: "not JSON: Unexpected token 'o'" },
      { at: "line 6", line: 6, value: { c: 3 } },
    ]);
  });

  it.each(SIZES)("cuts a JSON array into items whatever the chunk size (%i bytes)", async (size) => {
    const text = '\ufeff\n [ {"s":"a,]}\\"\\\\"} ,\n5, "x" ,[[{}]],{"t":{"u":[]}}, null ]\n';
    expect(await records(text, size)).toEqual([
      { at: "item 1 (line 2)", line: 2, value: { s: 'a,]}"\\' } },
      { at: "item 2 (line 3)", line: 3, value: 5 },
      { at: "item 3 (line 3)", line: 3, value: "x" },
      { at: "item 4 (line 3)", line: 3, value: [[{}]] },
      { at: "item 5 (line 3)", line: 3, value: { t: { u: [] } } },
      { at: "item 6 (line 3)", line: 3, value: null },
    ]);
    expect(await records("[]", size)).toEqual([]);
    expect(await records(" \n ", size)).toEqual([]);
  });

  it("rejects a record over the limit by its size, keeping none of it, and goes on", async () => {
    const long = `{"t":"${"x".repeat(5000)}"}`;
    for (const size of [1, 100, 8192]) {
      expect(await records(`{"a":1}\n${long}\n{"b":2}\n`, size, 100)).toEqual([
        { at: "line 1", line: 1, value: { a: 1 } },
        {
          at: "line 2",
          line: 2,
          reason: "the record is 5008 bytes, over the limit of 100 bytes (--max-record-bytes)",
        },
        { at: "line 3", line: 3, value: { b: 2 } },
      ]);
      expect(await records(`[{"a":1},\n${long},{"b":2}]`, size, 100)).toEqual([
        { at: "item 1 (line 1)", line: 1, value: { a: 1 } },
        {
          at: "item 2 (line 2)",
          line: 2,
          reason: "the record is 5008 bytes, over the limit of 100 bytes (--max-record-bytes)",
        },
        { at: "item 3 (line 2)", line: 2, value: { b: 2 } },
      ]);
    }
  });

  it("rejects an NDJSON line that is not UTF-8", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n{"b":1}'),
    ]);
    expect(await records(bytes, 4)).toEqual([
      { at: "line 1", line: 1, reason: "not UTF-8 text" },
      { at: "line 2", line: 2, value: { b: 1 } },
    ]);
  });

  it("refuses a malformed or truncated JSON array in one line naming the place, without its content", async () => {
    expect(await failure('[{"a":1},\n{"b":2')).toBe(
      "f.json: line 2: the JSON array is truncated: the file ends inside item 2; expected the rest of it and a closing ']'",
    );
    expect(await failure('[{"a":1},\n{"b":\n')).toBe(
      "f.json: line 3: the JSON array is truncated: the file ends inside item 2 (begun on line 2); expected the rest of it and a closing ']'",
    );
    expect(await failure('[{"a":1}')).toBe(
      "f.json: line 1: the JSON array is truncated: the file ends after item 1; expected ',' or the closing ']'",
    );
    expect(await failure("[1,")).toBe(
      "f.json: line 1: the JSON array is truncated: the file ends where item 2 was expected; expected an item or the closing ']'",
    );
    expect(await failure('[{"a":1}\n{"b":2}]')).toBe(
      "f.json: line 2, column 1: expected ',' or ']' after item 1, found '{'",
    );
    expect(await failure("[1,]")).toBe("f.json: line 1, column 4: expected item 2, found ']'");
    expect(await failure("[1] x")).toBe(
      "f.json: line 1, column 5: expected nothing after the closing ']' of the array, found 'x'",
    );
    const secret = "SECRET-CONTENT";
    const message = await failure(`[{"a":1},\n{"t":"${secret}" "u":1}]`);
    expect(message).toBe(
      "f.json: line 2: item 2 is not valid JSON: Expected ',' or '}' after property value (column 23)",
    );
    expect(await failure(`[{"t":"${secret}", tru}]`)).not.toContain(secret);
  });
});
