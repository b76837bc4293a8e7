import { describe, expect, it } from "vitest";
import { loadSpec } from "../spec/load.ts";
import { frozenReleases } from "../spec/release.ts";
import { diffDocuments } from "./diff.ts";
import { describeLocation } from "./format/location.ts";

/**
 * The kit's own guard: within v1, the current spec must diff against every frozen release in
 * openapi/releases/ with no breaking change ("fields are only added, never removed").
 */
describe("frozen releases", async () => {
  const releases = await frozenReleases();
  const current = await loadSpec();

  it("there is at least one frozen release", () => {
    expect(releases.length).toBeGreaterThan(0);
  });

  it.each(releases.map((r) => [r.version, r] as const))(
    "%s → current has no breaking change",
    async (_, release) => {
      const r = await diffDocuments(
        { label: release.path, raw: release.raw },
        { label: current.source, raw: current.raw },
      );
      const breaking = r.findings
        .filter((f) => f.level === "breaking")
        .map((f) => `${f.rule} ${describeLocation(f)}: ${f.message}`);
      expect(breaking).toEqual([]);
    },
  );
});
