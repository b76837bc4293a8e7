import { describe, expect, it } from "vitest";
import { diffPatched, score, type Verdict, verdictOf } from "./corpus.ts";
import { HELDOUT } from "./corpus-heldout.ts";

describe("held-out batch (round five): its score on edits the diff was not tuned on", () => {
  it("holds at least 40 edits, about half breaking, every name once", () => {
    expect(HELDOUT.length).toBeGreaterThanOrEqual(40);
    expect(new Set(HELDOUT.map((c) => c.name)).size).toBe(HELDOUT.length);
    const breaking = HELDOUT.filter((c) => c.want === "breaking").length;
    expect(breaking / HELDOUT.length).toBeGreaterThan(0.4);
    expect(breaking / HELDOUT.length).toBeLessThan(0.6);
  });

  it("finds >= 95% of the breaking edits and calls <= 5% of the others breaking, and reports both", async () => {
    const results: { c: (typeof HELDOUT)[number]; got: Verdict }[] = [];
    for (const c of HELDOUT) results.push({ c, got: verdictOf(await diffPatched(c.patch)) });
    const s = score(results);
    const breaking = HELDOUT.filter((c) => c.want === "breaking").length;
    console.log(
      [
        `held-out: ${HELDOUT.length} edits, recall on breaking ${(s.recall * 100).toFixed(1)}% (${breaking - s.missed.length} of ${breaking}), false breaking ${(s.falseBreaking * 100).toFixed(1)}% (${s.falselyBreaking.length} of ${HELDOUT.length - breaking})`,
        ...s.missed.map((n) => `  missed: ${n}`),
        ...s.falselyBreaking.map((n) => `  falsely breaking: ${n}`),
      ].join("\n"),
    );
    // The goal of round five, on edits the diff was not tuned on.
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.falseBreaking).toBeLessThanOrEqual(0.05);
  }, 300_000);
});
