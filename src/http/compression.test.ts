import { describe, expect, it } from "vitest";
import { appliedCodings, negotiateCoding, varies } from "./compression.ts";

const CODINGS = ["br", "gzip", "deflate"];

describe("negotiateCoding", () => {
  it.each([
    ["no Accept-Encoding: the body as it is", undefined, undefined],
    ["empty", "", undefined],
    ["a browser's list: the server's first", "gzip, deflate, br", "br"],
    ["only gzip", "gzip", "gzip"],
    ["q decides before the server's order", "br;q=0.5, gzip", "gzip"],
    ["q=0 refuses a coding", "br;q=0, gzip;q=0.1", "gzip"],
    ["every coding refused", "br;q=0, gzip;q=0, deflate;q=0", undefined],
    ["identity only", "identity", undefined],
    ["* stands for the codings not named", "*, br;q=0", "gzip"],
    ["an unknown coding only", "zstd", undefined],
    ["case and spaces", " GZip ; Q=1 ", "gzip"],
  ])("%s", (_what, header, want) => {
    expect(negotiateCoding(header, CODINGS)).toBe(want);
  });
});

describe("appliedCodings and varies", () => {
  it("reads Content-Encoding in order of application, without identity", () => {
    expect(appliedCodings("gzip, br")).toEqual(["gzip", "br"]);
    expect(appliedCodings("identity")).toEqual([]);
    expect(appliedCodings(undefined)).toEqual([]);
  });
  it("reads Vary lists and *", () => {
    expect(varies("Origin, Accept-Encoding", "accept-encoding")).toBe(true);
    expect(varies("*", "Accept-Encoding")).toBe(true);
    expect(varies("Origin", "Accept-Encoding")).toBe(false);
    expect(varies(undefined, "Accept-Encoding")).toBe(false);
  });
});
