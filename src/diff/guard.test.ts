import { describe, expect, it } from "vitest";
import { loadSpec } from "../spec/load.ts";
import { compareSemver, documentDifferences, frozenReleases, sameVersionMessage } from "../spec/release.ts";
import { diffDocuments } from "./diff.ts";
import { describeLocation } from "./format/location.ts";

/**
 * The kit's own guard: within v1, the current spec must diff against every frozen release in
 * openapi/releases/ with no breaking change ("fields are only added, never removed"), and a
 * version once frozen names that document only.
 */
describe("frozen releases", async () => {
  const releases = await frozenReleases();
  const current = await loadSpec();

  it("there is at least one frozen release", () => {
    expect(releases.length).toBeGreaterThan(0);
  });

  // One version, one document: a change after a release needs a new version, even a
  // description (openapi/README.md "Releasing a spec change").
  it("the document is identical to the frozen release of its own info.version, if there is one", () => {
    const same = releases.find((r) => r.version === current.version);
    const differences = same ? documentDifferences(same.raw, current.raw) : [];
    expect(differences, same && sameVersionMessage(current.version, same.path, differences)).toEqual([]);
  });

  it("info.version is not older than the newest frozen release", () => {
    const newest = releases.at(-1)?.version ?? "0.0.0";
    expect(
      compareSemver(current.version, newest),
      `info.version ${current.version} < ${newest}`,
    ).toBeGreaterThanOrEqual(0);
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
