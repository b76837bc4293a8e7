/**
 * The planted matrix: each planted bug (a mutating proxy in front of the real reference server)
 * makes exactly the intended checks fail, after its proxy showed the bug took effect (at least one
 * answer differed from the correct server's answer to the same request: a bug that changed
 * nothing would pass any suite). Every bug runs in `npm test`; the matrix is cut into parts so that
 * vitest's two forks share it (each part is a test file of its own, its bugs one after another).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "../../src/spec/load.ts";
import { SPEC_PATH } from "../../src/spec/paths.ts";
import type { RunReport } from "../runner/report.ts";
import { runConformance } from "../runner/run.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { type PlantedProxy, startProxy } from "./proxy.ts";
import { PLANTED, type PlantedBug } from "./variants.ts";

/** The parts the spread matrix is cut into (one test file each: planted-part-N.test.ts). */
export const PARTS = 2;

/** The planted bugs of one part, with their index in PLANTED (their proxy's subnet is index + 1). */
export function partOf(part: number): (readonly [string, PlantedBug, number])[] {
  return PLANTED.map((bug, i) => [bug.name, bug, i] as const).filter(([, , i]) => i % PARTS === part);
}

/** The bug took effect: some answer the suite received differs from the correct server's. */
export async function expectMutated(proxy: PlantedProxy, bug: PlantedBug): Promise<void> {
  const tally = await proxy.tally();
  expect(
    tally.differing,
    `${bug.name}: none of ${tally.exchanges} answers differs from the correct server's (the mutation did nothing)`,
  ).toBeGreaterThan(0);
}

/** The planted bug fails exactly its intended checks (and, where given, with exactly these codes). */
export function expectExactly(report: RunReport, bug: PlantedBug): void {
  const failed = report.checks.filter((c) => c.status === "fail").map((c) => c.name);
  expect(failed, JSON.stringify(report.checks.flatMap((c) => c.violations.map((v) => v.title)))).toEqual(
    bug.expect,
  );
  if (bug.codes) {
    const codes = report.checks.flatMap((c) => c.violations.map((v) => v.code));
    expect([...new Set(codes)].sort()).toEqual([...bug.codes].sort());
  }
  if (bug.causes) expect(report.causes.map((c) => c.id)).toEqual(bug.causes);
}

/** The spec as a v1.x draft that dropped `louzhu` from Alert's required fields (bug.specWithoutLouzhu). */
export async function writeSpecWithoutLouzhu(dir: string): Promise<string> {
  const doc = parseDocument(await readFile(SPEC_PATH, "utf8")) as {
    components: { schemas: { Alert: { required: string[] } } };
  };
  doc.components.schemas.Alert.required = doc.components.schemas.Alert.required.filter((f) => f !== "louzhu");
  const path = join(dir, "openapi.json");
  await writeFile(path, JSON.stringify(doc));
  return path;
}

/**
 * One part of the spread matrix: one upstream reference server for all its bugs; each bug's proxy
 * has client IPs of its own upstream (its subnet), so their rate windows do not mix. Every bug is a
 * full run of the suite (every check), so a bug that trips a check it should not is seen.
 */
export function describePart(part: number): void {
  let upstream: Target;
  let dir: string;
  let specWithoutLouzhu: string;

  beforeAll(async () => {
    upstream = await startBundledServer();
    dir = await mkdtemp(join(tmpdir(), "dealkit-planted-"));
    specWithoutLouzhu = await writeSpecWithoutLouzhu(dir);
  });

  afterAll(async () => {
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe(`planted bugs, part ${part + 1} of ${PARTS}`, () => {
    it.each(partOf(part))(
      "%s took effect and fails exactly the intended checks",
      async (_name, bug, i) => {
        const proxy = await startProxy(upstream.baseUrl, bug.mutation, i + 1);
        try {
          const report = await runConformance({
            baseUrl: proxy.url,
            seed: 42,
            skipSlow: !bug.slow,
            randomRuns: 0,
            ...(upstream.account ? { account: upstream.account } : {}),
            ...(bug.specWithoutLouzhu ? { specPath: specWithoutLouzhu } : {}),
            ...(bug.rate ? { rate: bug.rate } : {}),
          });
          await expectMutated(proxy, bug);
          expectExactly(report, bug);
          // Whatever the fault, the rate diagnosis speaks at most once per cause.
          expect(report.notes.filter((n) => n.startsWith("rate limit:")).length).toBeLessThanOrEqual(2);
        } finally {
          await proxy.close();
        }
      },
      60_000,
    );
  });
}
