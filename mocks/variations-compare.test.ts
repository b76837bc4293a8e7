import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../src/spec/types.ts";
import { unexplainedDifferences } from "./variations-compare.ts";

const ITEM: JsonSchema = {
  type: "object",
  required: ["id", "title"],
  properties: { id: { type: "integer" }, title: { type: "string" }, price: { type: "number" } },
};
const BODY: JsonSchema = {
  type: "object",
  required: ["data"],
  properties: { data: { type: "array", items: ITEM } },
};
const PLAIN = { data: [{ id: 1, title: "券", price: 9.9 }] };

describe("unexplainedDifferences: what variations cannot explain", () => {
  it.each([
    ["keys reordered", { given: { data: [{ price: 9.9, title: "券", id: 1 }] }, want: [] }],
    [
      "an unknown field added, nested too",
      {
        given: { hot_score: 3, data: [{ id: 1, title: "券", price: 9.9, badge_text: { lang: "zh" } }] },
        want: [],
      },
    ],
    ["an optional field absent", { given: { data: [{ id: 1, title: "券" }] }, want: [] }],
    [
      "a required field absent",
      { given: { data: [{ id: 1, price: 9.9 }] }, want: ["/data/0/title: required, absent"] },
    ],
    [
      "a value changed",
      { given: { data: [{ id: 1, title: "券", price: 8 }] }, want: ["/data/0/price: 8 instead of 9.9"] },
    ],
    ["an item lost", { given: { data: [] }, want: ["/data: 0 items instead of 1 items"] }],
    [
      "a documented field that was absent appears",
      {
        given: { data: [{ id: 1, title: "券", price: 9.9 }] },
        plain: { data: [{ id: 1, title: "券" }] },
        want: ["/data/0/price: appeared"],
      },
    ],
  ] as [string, { given: unknown; plain?: unknown; want: string[] }][])("%s", (_, { given, plain, want }) => {
    expect(unexplainedDifferences(given, plain ?? PLAIN, BODY)).toEqual(want);
  });
});
