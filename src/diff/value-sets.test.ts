import { describe, expect, it } from "vitest";
import { compareValueSets, defaultOf, literalsOf } from "./value-sets.ts";

type Case = [
  string,
  { base: object; head: object; want: { lost?: unknown; gained?: unknown; undecided: boolean } },
];

const price = { type: "number", minimum: 0 };

// biome-ignore format: a table reads best one case per line
const cases: Case[] = [
  ["a number split into integer and number branches is the same set", { base: price, head: { anyOf: [{ type: "integer", minimum: 0 }, { type: "number", minimum: 0 }] }, want: { undecided: false } }],
  ["overlapping oneOf branches refuse what both admit", { base: price, head: { oneOf: [{ type: "integer", minimum: 0 }, { type: "number", minimum: 0 }] }, want: { lost: 0, undecided: false } }],
  ["a range replaced by an anyOf of constants loses the others", { base: { type: "integer", minimum: 1, maximum: 10 }, head: { anyOf: [{ const: 1 }, { const: 2 }] }, want: { lost: 10, undecided: false } }],
  ["an enum as an alternation of its literals is the same set", { base: { type: "string", enum: ["0", "1"] }, head: { type: "string", pattern: "^(0|1)$" }, want: { undecided: false } }],
  ["a null branch gains null", { base: price, head: { anyOf: [price, { type: "null" }] }, want: { gained: null, undecided: false } }],
  ["a pattern rewritten with nothing to tell them apart is undecided", { base: { type: "string", pattern: "^a+$" }, head: { anyOf: [{ type: "string", pattern: "^a+$" }, { type: "string", pattern: "^(?=a)a+$" }] }, want: { undecided: true } }],
];

describe("value sets: scalar schemas compared by the values they admit", () => {
  it.each(cases)("%s", (_, { base, head, want }) => {
    expect(compareValueSets(base as never, head as never)).toEqual(want);
  });

  it.each([
    ["^(query|path|header)$", ["query", "path", "header"]],
    ["^zdm$", ["zdm"]],
    ["^a\\.b$", ["a.b"]],
    ["^[a-z]+$", undefined],
    ["^(a|b)+$", undefined],
  ] as const)("literalsOf(%s)", (pattern, want) => {
    expect(literalsOf(pattern)).toEqual(want);
  });

  it("a default stated in a composition's part is the schema's default", () => {
    expect(defaultOf({ allOf: [{ type: "integer" }, { default: 10 }] })).toBe(10);
    expect(defaultOf({ anyOf: [{ default: 1 }, { default: 2 }] })).toBeUndefined();
  });
});
