/**
 * The house limit: no function over 80 lines (declarative tables aside), in the library, server,
 * mock, CLI, bench and tests alike. A function still waiting to be split is named in
 * long-functions.allowlist.ts with its reason; the list can only shrink.
 */
import { describe, expect, it } from "vitest";
import { ALLOWED_LONG_FUNCTIONS } from "./long-functions.allowlist.ts";
import { functionsIn, longFunctions, MAX_FUNCTION_LINES } from "./long-functions.ts";

const key = (f: { file: string; name: string }) => `${f.file} ${f.name}`;
const lines = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
const elements = (n: number) => Array.from({ length: n }, (_, i) => `  ${i},`).join("\n");

describe("the lister", () => {
  it.each([
    ["a function declaration", `function long() {\n${lines(3)}\n}`, "long", 5],
    ["an arrow held by a const", `const arrow = () => {\n${lines(3)}\n};`, "arrow", 5],
    ["a method", `class A {\n  method() {\n${lines(3)}\n  }\n}`, "method", 5],
    [
      "a callback, named by where it is passed",
      `server.on("x", () => {\n${lines(3)}\n});`,
      "on(…) callback",
      5,
    ],
    [
      "a nested function, under its outer one",
      `function outer() {\n  const inner = function () {\n${lines(1)}\n  };\n}`,
      "outer > inner",
      3,
    ],
    [
      "a function returning a table, less the table",
      `function table() {\n  const a = 1;\n  return [\n${elements(9)}\n  ];\n}`,
      "table",
      4,
    ],
  ])("measures %s", (_, text, name, want) => {
    const found = functionsIn("x.ts", text).find((f) => f.name === name);
    expect(found?.lines).toBe(want);
  });

  it("does not count a table written as a literal, nor the callbacks of describe and it", () => {
    const table = `const TABLE = [\n${elements(100)}\n];`;
    const test = `describe("x", () => {\n${lines(100)}\n});`;
    expect(functionsIn("x.ts", `${table}\n${test}`)).toEqual([]);
  });
});

describe(`functions over ${MAX_FUNCTION_LINES} lines`, () => {
  const found = longFunctions();
  const allowed = new Map(ALLOWED_LONG_FUNCTIONS.map((a) => [key(a), a]));

  it("exist only where the allowlist names them", () => {
    const unlisted = found.filter((f) => !allowed.has(key(f)));
    expect(
      unlisted.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines): split it by what it does`),
    ).toEqual([]);
  });

  it("do not grow past the length they were listed with", () => {
    const grown = found.filter((f) => f.lines > (allowed.get(key(f))?.lines ?? Number.POSITIVE_INFINITY));
    expect(grown.map((f) => `${key(f)}: ${f.lines} lines, listed at ${allowed.get(key(f))?.lines}`)).toEqual(
      [],
    );
  });

  it("the allowlist names no function that is already short or gone (delete its entry)", () => {
    const long = new Set(found.map(key));
    expect(ALLOWED_LONG_FUNCTIONS.filter((a) => !long.has(key(a))).map(key)).toEqual([]);
  });

  it("every entry says why it waits, once", () => {
    expect(ALLOWED_LONG_FUNCTIONS.filter((a) => a.reason.trim() === "").map(key)).toEqual([]);
    expect(allowed.size).toBe(ALLOWED_LONG_FUNCTIONS.length);
  });
});
