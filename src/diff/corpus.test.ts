import { describe, expect, it } from "vitest";
import { type CorpusCase, diffPatched, score, type Verdict, verdictOf } from "./corpus.ts";
import { CORPUS } from "./corpus-cases.ts";

const results: { c: CorpusCase; got: Verdict }[] = [];

describe("edit corpus: each edit gets the class a reviewer gives it", () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const r = await diffPatched(c.patch);
    const got = verdictOf(r);
    results.push({ c, got });
    const shown = r.findings.map((f) => `${f.level} ${f.rule}: ${f.message}`);
    expect({ got, findings: shown }).toMatchObject({ got: c.want });
  });
});

describe("edit corpus: the acceptance bars of issue 23", () => {
  it("holds at least 80 edits, a third of them breaking, every name once", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length);
    expect(CORPUS.filter((c) => c.want === "breaking").length).toBeGreaterThan(CORPUS.length / 3);
  });
  it("finds >= 95% of the breaking edits and calls <= 5% of the others breaking", () => {
    expect(results.length).toBe(CORPUS.length);
    const s = score(results);
    console.log(
      `corpus: ${CORPUS.length} edits, recall on breaking ${(s.recall * 100).toFixed(1)}%, false breaking ${(s.falseBreaking * 100).toFixed(1)}%`,
    );
    expect(s).toMatchObject({ missed: [], falselyBreaking: [] });
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.falseBreaking).toBeLessThanOrEqual(0.05);
  });
});
