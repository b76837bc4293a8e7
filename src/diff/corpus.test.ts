import { describe, expect, it } from "vitest";
import { applyPatch, diffPatched, score, type Verdict, verdictOf } from "./corpus.ts";
import { CORPUS } from "./corpus-cases.ts";
import { spec } from "./testing.ts";

/** Each edit's verdict, by name: filled by the per-edit tests, completed by the bars when filtered. */
const verdicts = new Map<string, Verdict>();

describe("edit corpus: each edit gets the class a reviewer gives it", () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const r = await diffPatched(c.patch);
    const got = verdictOf(r);
    verdicts.set(c.name, got);
    const shown = r.findings.map((f) => `${f.level} ${f.rule}: ${f.message}`);
    expect({ got, findings: shown }).toMatchObject({ got: c.want });
  });
});

describe("edit corpus: patches", () => {
  it("edit what they say: a pointer that misses is an error, not a silent no-op", () => {
    expect(() => applyPatch(spec(), [{ op: "remove", path: "/components/schemas/Nope" }])).toThrow(/no \//);
    expect(() =>
      applyPatch(spec(), [{ op: "replace", path: "/paths/~1api~1v1~1gone/get", value: {} }]),
    ).toThrow();
    const d = spec();
    applyPatch(d, [
      {
        op: "move",
        from: "/components/schemas/Alert/properties/louzhu",
        path: "/components/schemas/Alert/properties/author",
      },
    ]);
    expect(Object.keys(d.components.schemas.Alert.properties)).toContain("author");
    expect(Object.keys(d.components.schemas.Alert.properties)).not.toContain("louzhu");
  });
});

describe("edit corpus: the acceptance bars of issue 23", () => {
  it("holds at least 80 edits, a third of them breaking, every name once", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length);
    expect(CORPUS.filter((c) => c.want === "breaking").length).toBeGreaterThan(CORPUS.length / 3);
  });

  it("finds >= 95% of the breaking edits and calls <= 5% of the others breaking", async () => {
    for (const c of CORPUS)
      if (!verdicts.has(c.name)) verdicts.set(c.name, verdictOf(await diffPatched(c.patch)));
    const s = score(CORPUS.map((c) => ({ c, got: verdicts.get(c.name) as Verdict })));
    console.log(
      `corpus: ${CORPUS.length} edits, recall on breaking ${(s.recall * 100).toFixed(1)}%, false breaking ${(s.falseBreaking * 100).toFixed(1)}%`,
    );
    expect(s).toMatchObject({ missed: [], falselyBreaking: [] });
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.falseBreaking).toBeLessThanOrEqual(0.05);
  }, 300_000);
});
