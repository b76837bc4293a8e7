/**
 * The proxy's soak takes 30 minutes (an hour's exchanges, compressed), three times the rest of the
 * bench, so a full run does not repeat it: the latest full-length soak (`npm run bench -- --only
 * soak`) is kept in bench/soak-results.json, with the header of the run that measured it, and a
 * full run shows it as its own section, each target saying when and on which commit it was
 * measured. A shortened soak (--soak-seconds) is not kept: it does not show an hour's memory.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FULL_SOAK_SECONDS } from "./scenarios/soak.ts";
import type { BenchRun, RunHeader, Section } from "./types.ts";

export const SOAK_FILE = "soak-results.json";

interface KeptSoak {
  header: RunHeader;
  section: Section;
}

const fullLength = (s: Section) =>
  s.id === "soak" && ((s.data as { seconds?: number } | undefined)?.seconds ?? 0) >= FULL_SOAK_SECONDS;

/** Keeps this run's soak for later full runs when it ran its full length. Returns whether it did. */
export function keepSoak(run: BenchRun, dir: string): boolean {
  const section = run.sections.find(fullLength);
  if (!section) return false;
  const kept: KeptSoak = { header: run.header, section };
  writeFileSync(join(dir, SOAK_FILE), `${JSON.stringify(kept, null, 2)}\n`);
  return true;
}

/**
 * The kept soak as a section of a full run that did not soak: its targets and tables as measured,
 * each figure prefixed with the soak run's date and commit. Without a kept soak, the soak's targets
 * are reported as not measured, saying how to measure them.
 */
export function carriedSoak(dir: string): Section {
  const path = join(dir, SOAK_FILE);
  if (!existsSync(path))
    return {
      id: "soak",
      title: "dealkit proxy: memory over a soak (not measured)",
      method: "No full-length soak has been kept: run `npm run bench -- --only soak` (30 minutes).",
      tables: [],
      targets: [
        {
          name: "dealkit proxy RSS through the soak",
          met: null,
          measured: `not run (no bench/${SOAK_FILE})`,
        },
      ],
      notes: [],
      data: { carried: false },
    };
  const { header, section } = JSON.parse(readFileSync(path, "utf8")) as KeptSoak;
  const when = `soak run of ${header.date.slice(0, 16).replace("T", " ")} UTC, commit ${header.commit}${header.dirty ? " (with uncommitted changes)" : ""}`;
  return {
    ...section,
    title: `${section.title} (carried from the ${when})`,
    method: `Measured by \`npm run bench -- --only soak\`, not in this run (30 minutes; kept in bench/${SOAK_FILE}). ${section.method}`,
    targets: section.targets.map((t) => ({ ...t, measured: `${when}: ${t.measured}` })),
    data: { carriedFrom: header, ...(section.data as object) },
  };
}
