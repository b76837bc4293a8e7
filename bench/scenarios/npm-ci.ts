import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext } from "../context.ts";
import { REPO } from "../procs.ts";
import { formatNumber } from "../stats.ts";
import type { Section } from "../types.ts";

/**
 * `npm ci` in a temp copy of the committed tree, with this machine's npm cache warm (nothing
 * is downloaded that was downloaded before): the time a CI job or a new contributor pays.
 */
export async function npmCi(ctx: BenchContext): Promise<Section> {
  const dir = join(ctx.tmp, "npm-ci");
  mkdirSync(dir);
  execFileSync("sh", ["-c", `git archive HEAD | tar -x -C "${dir}"`], { cwd: REPO });
  ctx.log("  npm ci in a temp copy");
  const started = performance.now();
  const result = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  ctx.log(`  npm ci: exit ${result.status}, ${seconds.toFixed(1)} s`);
  return {
    id: "npm-ci",
    title: "`npm ci` (warm npm cache)",
    method:
      "`npm ci --prefer-offline --no-audit --no-fund` in a temp copy of HEAD (`git archive`), npm cache warm. One run.",
    tables: [{ columns: ["exit", "wall s"], rows: [[String(result.status), formatNumber(seconds)]] }],
    targets: [],
    notes:
      result.status === 0
        ? []
        : [`npm ci failed: ${(result.stderr ?? "").trim().split("\n").slice(-3).join(" / ")}`],
    data: { exitCode: result.status, seconds },
  };
}
