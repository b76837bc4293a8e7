import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../spec/paths.ts";
import { changelogCommand, changelogPath, header, releaseChangelog, releasePairs } from "./changelog.ts";

const run = promisify(execFile);

/**
 * Each frozen release after the first carries the changelog the diff writes against the release
 * before it. The file is generated: when it drifts (a hand edit, or a diff rule that learnt
 * something), `npm run generate` rewrites it.
 */
describe("release changelogs", async () => {
  const pairs = await releasePairs();

  it("there is a release with a predecessor to describe", () => {
    expect(pairs.length).toBeGreaterThan(0);
  });

  it.each(pairs.map(([previous, release]) => [release.version, previous, release] as const))(
    "%s: the changelog is what the diff says today (else run npm run generate)",
    async (_, previous, release) => {
      const path = changelogPath(release);
      const written = await readFile(path, "utf8").catch(() => `(no file at ${path})`);
      expect(written, `${path} is stale or hand-edited: run npm run generate`).toBe(
        await releaseChangelog(previous, release),
      );
    },
  );

  it("is, under its first line, exactly what `dealkit diff --format markdown` prints", async () => {
    const [previous, release] = pairs.at(-1) as (typeof pairs)[number];
    const [, ...args] = changelogCommand(previous, release).split(" ");
    const { stdout } = await run(process.execPath, ["bin/dealkit.js", ...args], { cwd: REPO_ROOT });
    const written = await readFile(changelogPath(release), "utf8");
    expect(written).toBe(`${header(previous, release)}\n\n${stdout}`);
  }, 60_000);
});
