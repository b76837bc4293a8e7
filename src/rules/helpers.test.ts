import { describe, expect, it } from "vitest";
import type { RankWindows } from "../spec/types.ts";
import { collect, get, has, join } from "./pointer.ts";
import { localMidnight, windowRange } from "./windows.ts";
import { containsWord, splitWords } from "./words.ts";

describe("pointer", () => {
  const doc = { data: [{ a: 1, "x/y": null }, { a: 2 }], meta: { w: { k1: 1, k2: 2 } } };
  it.each([
    ["", doc],
    ["/data/0/a", 1],
    ["/data/1/a", 2],
    ["/data/0/x~1y", null],
    ["/data/5", undefined],
    ["/meta/w/k2", 2],
  ] as const)("get %s", (pointer, want) => expect(get(doc, pointer)).toEqual(want));

  it("has distinguishes null from missing", () => {
    expect(has(doc, "/data/0/x~1y")).toBe(true);
    expect(has(doc, "/data/1/x~1y")).toBe(false);
  });

  it("collect expands * and @keys", () => {
    expect(collect(doc, "/data/*/a")).toEqual([1, 2]);
    expect(collect(doc, "/meta/w/@keys")).toEqual(["k1", "k2"]);
  });

  it("join escapes", () => expect(join("/a", "b/c~")).toBe("/a/b~1c~0"));
});

describe("words", () => {
  const syntax = {
    separators: ["\n", "|", "#"],
    trim: true,
    drop_empty: true,
    max_words: 10,
    max_word_length: 50,
    match: "substring-ci-latin" as const,
    combine: "any" as const,
  };
  it.each([
    ["京东|淘宝", ["京东", "淘宝"]],
    ["京东\n 淘宝 #拼多多", ["京东", "淘宝", "拼多多"]],
    [" | # \n ", []],
    ["PLUS会员", ["PLUS会员"]],
  ])("splits %j", (value, want) => expect(splitWords(value, syntax)).toEqual(want));

  it("matches Latin letters case-insensitively and other scripts exactly", () => {
    expect(containsWord("京东 PLUS会员 红包", "plus")).toBe(true);
    expect(containsWord("京东 plus会员", "PLUS会员")).toBe(true);
    expect(containsWord("京东", "东京")).toBe(false);
  });
});

describe("rank windows", () => {
  const windows: RankWindows = {
    timezone: "Asia/Shanghai",
    order: [],
    windows: {
      yixiaoshi: { label: "一小时", kind: "rolling", hours: 1 },
      jintian: { label: "今天", kind: "calendar-day", days_ago: 0 },
      zuotian: { label: "昨天", kind: "calendar-day", days_ago: 1 },
    },
  };
  // 2026-11-25 01:30 in Shanghai is 2026-11-24 17:30 UTC: the local date differs from UTC's.
  const now = Date.parse("2026-11-25T01:30:00+08:00") / 1000;
  const shanghaiMidnight = Date.parse("2026-11-25T00:00:00+08:00") / 1000;

  it("local midnight is in Asia/Shanghai, not UTC", () => {
    expect(localMidnight(now, "Asia/Shanghai", 0)).toBe(shanghaiMidnight);
  });
  it.each([
    ["yixiaoshi", { from: now - 3600, to: now }],
    ["jintian", { from: shanghaiMidnight, to: now }],
    ["zuotian", { from: shanghaiMidnight - 86_400, to: shanghaiMidnight - 1 }],
  ])("%s", (act, want) => expect(windowRange(windows, act, now)).toEqual(want));
});

describe('the trim set of words (info.description "Characters and words")', () => {
  // The list as the spec states it: the runtime's String.prototype.trim must remove exactly these.
  const STATED = [
    [0x09, 0x0d],
    [0x20, 0x20],
    [0xa0, 0xa0],
    [0x1680, 0x1680],
    [0x2000, 0x200a],
    [0x2028, 0x2029],
    [0x202f, 0x202f],
    [0x205f, 0x205f],
    [0x3000, 0x3000],
    [0xfeff, 0xfeff],
  ];
  const stated = (c: number) => STATED.some(([lo = 0, hi = 0]) => c >= lo && c <= hi);

  it("is exactly the stated list over the Basic Multilingual Plane", () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const trimmed = String.fromCharCode(c).trim() === "";
      if (trimmed !== stated(c)) differ.push(c.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it.each([
    ["U+FEFF is trimmed", "\uFEFF京东\uFEFF", ["京东"]],
    ["U+3000 is trimmed", "\u3000京东", ["京东"]],
    ["U+0085 stays part of the word", "\u0085京东", ["\u0085京东"]],
    ["U+180E stays part of the word", "京东\u180E", ["京东\u180E"]],
    ["U+200B stays part of the word", "\u200B", ["\u200B"]],
  ])("%s", (_name, value, want) => {
    const syntax = {
      separators: ["\n", "|", "#"],
      trim: true,
      drop_empty: true,
      max_words: 10,
      max_word_length: 50,
      match: "substring-ci-latin" as const,
      combine: "any" as const,
    };
    expect(splitWords(value, syntax)).toEqual(want);
  });
});
