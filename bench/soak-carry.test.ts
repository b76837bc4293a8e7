import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FULL_SOAK_SECONDS } from "./scenarios/soak.ts";
import { carriedSoak, keepSoak, SOAK_FILE } from "./soak-carry.ts";
import type { BenchRun, Section } from "./types.ts";

const soakSection = (seconds: number): Section => ({
  id: "soak",
  title: "dealkit proxy: memory over a soak",
  method: "200 clients.",
  tables: [{ columns: ["s", "proxy RSS"], rows: [["0", "120"]] }],
  targets: [
    {
      name: "dealkit proxy RSS ≤ 256 MB through the soak",
      met: true,
      value: 211,
      unit: " MB",
      measured: "max 211 MB",
    },
  ],
  notes: [],
  data: { seconds },
});

const runWith = (sections: Section[]): BenchRun => ({
  header: {
    date: "2026-11-27T02:00:00.000Z",
    commit: "abc1234",
    dirty: false,
    node: "v24.21.0",
    cpus: 2,
    cpuModel: "test",
    platform: "linux x64",
    quick: false,
    only: ["soak"],
    wallSeconds: FULL_SOAK_SECONDS,
  },
  sections,
});

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the soak a full run carries", () => {
  it("keeps a full-length soak and shows it dated, with its targets and verdicts", () => {
    dir = mkdtempSync(join(tmpdir(), "soak-carry-"));
    expect(keepSoak(runWith([soakSection(FULL_SOAK_SECONDS)]), dir)).toBe(true);
    const carried = carriedSoak(dir);
    expect(carried.title).toContain("carried from the soak run of 2026-11-27 02:00 UTC, commit abc1234");
    expect(carried.targets).toEqual([
      expect.objectContaining({
        name: "dealkit proxy RSS ≤ 256 MB through the soak",
        met: true,
        value: 211,
        measured: "soak run of 2026-11-27 02:00 UTC, commit abc1234: max 211 MB",
      }),
    ]);
    expect(carried.tables).toHaveLength(1);
  });

  it("does not keep a shortened soak or a run without one", () => {
    dir = mkdtempSync(join(tmpdir(), "soak-carry-"));
    expect(keepSoak(runWith([soakSection(FULL_SOAK_SECONDS - 1)]), dir)).toBe(false);
    expect(keepSoak(runWith([]), dir)).toBe(false);
    expect(existsSync(join(dir, SOAK_FILE))).toBe(false);
  });

  it("reports the soak's target as not measured when none was kept", () => {
    dir = mkdtempSync(join(tmpdir(), "soak-carry-"));
    const carried = carriedSoak(dir);
    expect(carried.targets.map((t) => t.met)).toEqual([null]);
    expect(carried.method).toContain("npm run bench -- --only soak");
  });
});
