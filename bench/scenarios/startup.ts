import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../mocks/port.ts";
import type { BenchContext } from "../context.ts";
import { REPO } from "../procs.ts";
import { formatNumber, median } from "../stats.ts";
import type { Section } from "../types.ts";

const POLL_MS = 20;

/** Spawns `dealkit serve` and returns the ms until GET /api/v1/meta first answers 200. */
async function timeToFirstAnswer(dbPath: string, cacheDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ["bin/dealkit.js", "serve", "--port", String(port), "--db", dbPath, "--quiet"],
    { cwd: REPO, stdio: "ignore", env: { ...process.env, DEALKIT_CACHE_DIR: cacheDir } },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`dealkit serve exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/meta`);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

export async function startup(ctx: BenchContext): Promise<Section> {
  const cold: number[] = [];
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    // The server keeps an image of each small generated database ($DEALKIT_CACHE_DIR) and copies it
    // into a new file: cold = an empty image cache (a real generation), fresh = a new file from the image.
    const cache = mkdtempSync(join(ctx.tmp, "image-cache-"));
    cold.push(await timeToFirstAnswer(join(ctx.tmp, `startup-cold-${i}.db`), cache));
    const db = join(ctx.tmp, `startup-${i}.db`);
    fresh.push(await timeToFirstAnswer(db, cache));
    existing.push(await timeToFirstAnswer(db, cache));
    ctx.log(
      `  start-up run ${i + 1}: cold ${cold.at(-1)?.toFixed(0)} ms, fresh ${fresh.at(-1)?.toFixed(0)} ms, existing ${existing.at(-1)?.toFixed(0)} ms`,
    );
  }
  const row = (name: string, runs: number[]) => [
    name,
    formatNumber(median(runs)),
    runs.map((x) => x.toFixed(0)).join(", "),
  ];
  return {
    id: "startup",
    title: "Start-up: `dealkit serve` to first answer",
    method:
      `\`node bin/dealkit.js serve --db PATH --quiet\` spawned, GET /api/v1/meta polled every ${POLL_MS} ms until 200; ` +
      `median of ${ctx.runs}. The default data: 20,000 generated alerts.`,
    tables: [
      {
        columns: ["database", "median ms", "runs ms"],
        rows: [
          row("new file, empty image cache (generates 20k alerts)", cold),
          row("new file, generated image cached (copied, shifted to now)", fresh),
          row("existing file (kept)", existing),
        ],
      },
    ],
    targets: [],
    notes: [
      "The existing-file time is the floor: Node, tsx compiling the TypeScript sources, loading and dereferencing the spec, opening SQLite.",
      `Generating the default data costs ≈ ${formatNumber(median(cold) - median(existing))} ms on top of it.`,
    ],
    data: { cold, fresh, existing },
  };
}
