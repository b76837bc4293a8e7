import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { measureInstall } from "../../test/package/install.ts";
import { manifest, stagePackage } from "../../test/package/stage.ts";
import type { BenchContext } from "../context.ts";
import { formatNumber } from "../stats.ts";
import type { Section } from "../types.ts";

/**
 * The packed package installed as a CI job installs it: `npm install TARBALL` in an empty folder
 * with a warm npm cache, on the Node running the bench. Baselines from the same run: installing
 * `yaml` alone (one package, no dependencies) for the install, `node -e 0` for the CLI start.
 */
export async function install(ctx: BenchContext): Promise<Section> {
  const staged = stagePackage();
  try {
    const m = await measureInstall(staged, process.execPath);
    const baseline = join(staged.dir, "baseline");
    mkdirSync(baseline);
    writeFileSync(join(baseline, "package.json"), JSON.stringify({ name: "baseline", private: true }));
    const t0 = performance.now();
    spawnSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", `yaml@${manifest.dependencies.yaml}`],
      { cwd: baseline, stdio: "ignore" },
    );
    const baselineSeconds = (performance.now() - t0) / 1000;
    ctx.log(`  install ${m.installSeconds.toFixed(1)} s (yaml alone ${baselineSeconds.toFixed(1)} s)`);
    const failed = m.steps.filter((s) => !s.ok);
    return {
      id: "install",
      title: "Install: the packed package in an empty folder",
      method:
        `\`npm pack\` of a build, then \`npm install --prefer-offline TARBALL\` in an empty folder (npm cache warm) on Node ${m.nodeVersion}; ` +
        "`dealkit --help` median of 5; then `dealkit conformance --skip-slow`, `dealkit serve` + SIGTERM and the client from plain Node ESM, each must succeed.",
      tables: [
        {
          columns: ["measure", "wall s", "baseline s", "ratio"],
          rows: [
            [
              "npm install TARBALL (baseline: yaml alone)",
              formatNumber(m.installSeconds),
              formatNumber(baselineSeconds),
              `${(m.installSeconds / baselineSeconds).toFixed(1)}×`,
            ],
            [
              "dealkit --help (baseline: node -e 0)",
              formatNumber(m.helpSeconds),
              formatNumber(m.nodeAloneSeconds),
              `${(m.helpSeconds / m.nodeAloneSeconds).toFixed(1)}×`,
            ],
          ],
        },
        {
          columns: ["step", "result"],
          rows: m.steps.map((s) => [s.name, s.ok ? "ok" : `failed: ${s.detail}`]),
        },
      ],
      targets: [
        {
          name: "install from the tarball in ≤ 20 s, nothing compiled",
          met: m.installSeconds <= 20 && !m.compiled,
          measured: `${formatNumber(m.installSeconds)} s, ${m.compiled ? "a native build ran" : "no compile"}`,
          value: m.installSeconds,
          unit: " s",
        },
        {
          name: "dealkit --help starts in ≤ 0.3 s",
          met: m.helpSeconds <= 0.3,
          measured: `${formatNumber(m.helpSeconds)} s (${(m.helpSeconds / m.nodeAloneSeconds).toFixed(1)}× node -e 0)`,
          value: m.helpSeconds,
          unit: " s",
        },
        {
          name: "the installed CLI, server and client work",
          met: failed.length === 0,
          measured: failed.length === 0 ? "every step ok" : failed.map((s) => s.name).join(", "),
        },
      ],
      notes: [],
      data: { ...m, baselineSeconds },
    };
  } finally {
    rmSync(staged.dir, { recursive: true, force: true });
  }
}
