/**
 * `npm run bench [-- --quick] [--only a,b]`: starts what each scenario needs on loopback, runs
 * bounded loads, writes bench/results.md and bench/results.json. Scenarios run one after the
 * other (never two loads at once: they would measure each other).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type BenchArgs, parseArgs, type ScenarioName, selectedScenarios, USAGE } from "./args.ts";
import { type BenchContext, loadShape } from "./context.ts";
import { REPO, stopAll } from "./procs.ts";
import { updateReadmes } from "./readme-results.ts";
import { isFull, writeResults } from "./report.ts";
import { conformance } from "./scenarios/conformance.ts";
import { field } from "./scenarios/field.ts";
import { install } from "./scenarios/install.ts";
import { limiter } from "./scenarios/limiter.ts";
import { npmCi } from "./scenarios/npm-ci.ts";
import { proxy } from "./scenarios/proxy.ts";
import { redisStall } from "./scenarios/redis-stall.ts";
import { scaleout } from "./scenarios/scaleout.ts";
import { search } from "./scenarios/search.ts";
import { soak } from "./scenarios/soak.ts";
import { startup } from "./scenarios/startup.ts";
import { throughput } from "./scenarios/throughput.ts";
import { carriedSoak, keepSoak, SOAK_FILE } from "./soak-carry.ts";
import type { BenchRun, Section } from "./types.ts";

const RUNNERS: Record<ScenarioName, (ctx: BenchContext) => Promise<Section>> = {
  throughput,
  search,
  limiter,
  conformance,
  field,
  startup,
  scaleout,
  "redis-stall": redisStall,
  proxy,
  install,
  "npm-ci": npmCi,
  soak,
};

function git(...args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: REPO, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

async function main(args: BenchArgs): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg() as [number, number, number];
  const tmp = mkdtempSync(join(tmpdir(), "dealkit-bench-"));
  const ctx: BenchContext = {
    args,
    ...loadShape(args.quick),
    tmp,
    log: (line) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}`),
  };
  const sections: Section[] = [];
  try {
    for (const name of selectedScenarios(args)) {
      ctx.log(`== ${name}`);
      const t0 = performance.now();
      try {
        const section = await RUNNERS[name](ctx);
        section.wallSeconds = (performance.now() - t0) / 1000;
        sections.push(section);
      } catch (err) {
        // One broken scenario must not cost the others' figures: it is reported as not measured.
        ctx.log(`${name} failed: ${(err as Error).stack ?? err}`);
        sections.push({
          id: name,
          title: `${name}: failed`,
          method: "The scenario threw before it finished.",
          tables: [],
          targets: [],
          notes: [`error: ${(err as Error).message.split("\n")[0]}`],
          data: { error: String(err) },
          wallSeconds: (performance.now() - t0) / 1000,
        });
      }
      await stopAll();
    }
  } finally {
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
  const run: BenchRun = {
    header: {
      date: new Date().toISOString(),
      commit: git("rev-parse", "--short", "HEAD"),
      dirty: git("status", "--porcelain", "--", "reference-server", "src", "conformance", "mocks") !== "",
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      platform: `${process.platform} ${process.arch}`,
      quick: args.quick,
      only: args.only,
      wallSeconds: (performance.now() - started) / 1000,
      loadBefore,
    },
    sections,
  };
  const dir = join(REPO, "bench");
  if (keepSoak(run, dir)) ctx.log(`kept the soak's figures in bench/${SOAK_FILE} for later full runs`);
  if (isFull(run) && !sections.some((s) => s.id === "soak")) sections.push(carriedSoak(dir));
  const written = writeResults(run, dir);
  if (written === "results.md") updateReadmes(run, REPO);
  ctx.log(`wrote bench/${written} and its JSON (${run.header.wallSeconds.toFixed(0)} s)`);
}

let args: BenchArgs;
try {
  args = parseArgs(process.argv.slice(2));
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
} else {
  process.once("SIGINT", () => {
    void stopAll().then(() => process.exit(130));
  });
  await main(args);
}
