import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../../mocks/port.ts";
import type { BenchContext } from "../context.ts";
import { REPO } from "../procs.ts";
import { formatNumber, median } from "../stats.ts";
import type { Section } from "../types.ts";

const POLL_MS = 20;

/** Spawns `dealkit serve` and returns the ms until GET /api/v1/meta first answers 200. */
async function timeToFirstAnswer(dbPath: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ["bin/dealkit.js", "serve", "--port", String(port), "--db", dbPath, "--quiet"],
    { cwd: REPO, stdio: "ignore" },
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
  const fresh: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    const db = join(ctx.tmp, `startup-${i}.db`);
    fresh.push(await timeToFirstAnswer(db));
    existing.push(await timeToFirstAnswer(db));
    ctx.log(
      `  start-up run ${i + 1}: fresh ${fresh.at(-1)?.toFixed(0)} ms, existing ${existing.at(-1)?.toFixed(0)} ms`,
    );
  }
  const f = median(fresh);
  const e = median(existing);
  return {
    id: "startup",
    title: "Start-up: `dealkit serve` to first answer",
    method:
      `\`node bin/dealkit.js serve --db PATH --quiet\` spawned, GET /api/v1/meta polled every ${POLL_MS} ms until 200; ` +
      `median of ${ctx.runs}. Fresh: an empty temp file, filled with the default 20,000 generated alerts on start. ` +
      "Existing: the same file again, right after (data kept as it is).",
    tables: [
      {
        columns: ["database", "median ms", "runs ms", "generation share"],
        rows: [
          [
            "fresh temp file (generates 20k alerts)",
            formatNumber(f),
            fresh.map((x) => x.toFixed(0)).join(", "),
            `≈ ${formatNumber(f - e)} ms`,
          ],
          ["existing file", formatNumber(e), existing.map((x) => x.toFixed(0)).join(", "), "—"],
        ],
      },
    ],
    targets: [],
    notes: [
      "The existing-file time is the floor: Node, tsx compiling the TypeScript sources, loading and dereferencing the spec, opening SQLite.",
    ],
    data: { fresh, existing },
  };
}
