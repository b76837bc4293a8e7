import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  FIRST_SEEN_PER_KIND,
  FIRST_SEEN_SERIES,
  queryKinds,
  REPEATED_PER_KIND,
  TIERING_WARMUP_PER_KIND,
  WARMUP_PER_KIND,
  warmupInTurn,
} from "./search-queries.ts";

const digest = (paths: string[]) => createHash("sha256").update(paths.join("\n")).digest("hex").slice(0, 16);

describe("the search scenario's query mix", () => {
  const kinds = queryKinds();

  it("is the same on every call: seeded", () => {
    expect(queryKinds()).toEqual(kinds);
  });

  it("has distinct measured paths per kind and warm-up paths none of which is measured", () => {
    // A search's filter (its total is counted once per filter): the path without its page.
    const filter = (path: string) => path.replace(/&page=\d+$/, "");
    for (const kind of kinds) {
      expect(new Set(kind.paths).size, kind.id).toBe(REPEATED_PER_KIND + FIRST_SEEN_PER_KIND);
      expect(new Set(kind.warmup).size, kind.id).toBe(WARMUP_PER_KIND + TIERING_WARMUP_PER_KIND);
      const measured = new Set(kind.paths.map(filter));
      expect(
        kind.warmup.filter((p) => measured.has(filter(p))),
        kind.id,
      ).toEqual([]);
    }
    // One 2-character word runs out of words: its later warm-ups are further pages of warm-up words.
    const word = kinds.find((k) => k.id === "word");
    expect(word?.warmup.filter((p) => p.includes("&page=")).length).toBeGreaterThan(0);
  });

  it("warms the kinds in turn: one query of each, then the next of each", () => {
    const inTurn = warmupInTurn(kinds);
    expect(inTurn.length).toBe(kinds.reduce((n, k) => n + k.warmup.length, 0));
    expect(inTurn.slice(0, 2 * kinds.length)).toEqual([
      ...kinds.map((k) => k.warmup[0]),
      ...kinds.map((k) => k.warmup[1]),
    ]);
    expect(new Set(inTurn)).toEqual(new Set(kinds.flatMap((k) => k.warmup)));
  });

  // Runs are compared with the previous full run: the measured queries must not move when the mix
  // code changes (as when the warm-up was added after them). A new mix is a new series: update these
  // digests and say so in bench/README.md.
  it("measures the queries every run since issue 25 measured, first", () => {
    const series = (k: (typeof kinds)[number]) => k.paths.slice(0, REPEATED_PER_KIND + FIRST_SEEN_SERIES);
    expect(Object.fromEntries(kinds.map((k) => [k.id, digest(series(k))]))).toEqual({
      word: "7a5c25764711acdd",
      or: "862092b3b732589d",
      block: "5bd4734b595856ae",
      price: "e50132287a4fc613",
    });
  });

  // The queries added when the count was raised to 300 (after the series and the warm-ups), pinned too.
  it("measures the same 300 first-seen queries per kind on every run", () => {
    expect(Object.fromEntries(kinds.map((k) => [k.id, digest(k.paths)]))).toEqual({
      word: "9371d5211c9c6cec",
      or: "3a214a96fed3e004",
      block: "b6b8d26f72df73b5",
      price: "939fe38e3481dcd5",
    });
  });
});
