import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BodyTap, decodeBody } from "./body.ts";

describe("BodyTap: the copy kept for judging", () => {
  it("never holds more than its cap, however large the body", () => {
    const tap = new BodyTap(1000);
    for (let i = 0; i < 10_000; i++) tap.push(Buffer.alloc(300, 1));
    expect(tap.bytes).toBe(3_000_000);
    expect(tap.highWater).toBeLessThanOrEqual(1000);
    expect(tap.over).toBe(true);
    expect(tap.buffer().length).toBe(0);
    expect(decodeBody(tap, undefined)).toEqual({ notKept: "body over 1000 bytes" });
  });

  it("keeps a body up to the cap exactly", () => {
    const tap = new BodyTap(6);
    tap.push(Buffer.from("abc"));
    tap.push(Buffer.from("def"));
    expect(decodeBody(tap, undefined)).toEqual({ text: "abcdef" });
  });
});

describe("decodeBody: the content-encoding undone for judging (the client gets the bytes as sent)", () => {
  const json = JSON.stringify({ data: ["线报"] });
  it.each([
    ["gzip", gzipSync(json)],
    ["deflate", deflateSync(json)],
    ["br", brotliCompressSync(json)],
    ["identity", Buffer.from(json)],
  ])("%s", (coding, bytes) => {
    const tap = new BodyTap(1_000_000);
    tap.push(bytes);
    expect(decodeBody(tap, coding)).toEqual({ text: json });
  });

  it.each([
    [
      "a small body that expands past the cap",
      "gzip",
      gzipSync(Buffer.alloc(100_000)),
      /over 1000 bytes once decoded/,
    ],
  ])("%s is not judged", (_name, coding, bytes, why) => {
    const tap = new BodyTap(1000);
    tap.push(bytes);
    const decoded = decodeBody(tap, coding);
    expect("notKept" in decoded && decoded.notKept).toMatch(why);
  });

  it.each([
    ["an encoding no client can undo", "compress", Buffer.from("x"), /compress is not one a client can undo/],
    ["a body that is not what it says", "gzip", Buffer.from("not gzip"), /the gzip body does not decode/],
    [
      "a body compressed twice under one label",
      "gzip",
      gzipSync(gzipSync(Buffer.from(json))),
      /compressed twice/,
    ],
    ["a body cut short", "gzip", gzipSync(Buffer.from(json)).subarray(0, 20), /does not decode/],
  ])("%s is a broken answer for content-encoding to judge", (_name, coding, bytes, why) => {
    const tap = new BodyTap(1000);
    tap.push(bytes);
    const decoded = decodeBody(tap, coding);
    expect("failure" in decoded && decoded.failure.kind).toBe("undecodable");
    expect("failure" in decoded && decoded.failure.message).toMatch(why);
  });
});
