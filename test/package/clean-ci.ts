/**
 * `npm ci` of this checkout's package.json and lockfile in an empty folder, as a contributor or
 * CI runs it, with the real npm and registry (or a warm cache): npm 11 must not warn about an
 * undecided install script, nothing may compile (the README promises none), and the SQLite
 * binding must load on each Node binary given. Used by scripts/check-install.ts;
 * install-scripts.test.ts checks the allowScripts part offline.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./stage.ts";

export interface CleanCiStep {
  name: string;
  ok: boolean;
  detail?: string;
}

/** Opens an in-memory database with an FTS5 table (the reference server's word search needs it). */
const OPEN_SQLITE = `
const Database = require("better-sqlite3");
const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE t USING fts5(x)");
db.close();`;

const judged = (name: string, problem: string | undefined): CleanCiStep =>
  problem ? { name, ok: false, detail: problem } : { name, ok: true };

/** Runs `npm ci` with the first binary's folder first on PATH, then opens SQLite with each binary. */
export function checkCleanCi(nodes: string[]): CleanCiStep[] {
  const [first = process.execPath] = nodes;
  const dir = mkdtempSync(join(tmpdir(), "dealkit-ci-"));
  try {
    for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(ROOT, f), join(dir, f));
    const env = { ...process.env, PATH: `${dirname(first)}:${process.env.PATH ?? ""}` };
    const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: dir,
      env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = `${ci.stdout}${ci.stderr}`;
    const lines = (pattern: RegExp) => output.split("\n").filter((l) => pattern.test(l));
    const built = lines(/^gyp (info|ERR!)|prebuild-install/);
    const steps = [
      judged("npm ci", ci.status === 0 ? undefined : output.trim().split("\n").slice(-3).join(" / ")),
      judged(
        "npm ci: every install script decided in allowScripts (no warning)",
        lines(/install-scripts|allowScripts/).join(" / ") || undefined,
      ),
      judged(
        "npm ci: nothing compiled",
        built.slice(0, 3).join(" / ") ||
          (existsSync(join(dir, "node_modules/better-sqlite3/build"))
            ? "better-sqlite3/build exists"
            : undefined),
      ),
    ];
    for (const node of nodes.length ? nodes : [first]) {
      const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
      const opened = spawnSync(node, ["-e", OPEN_SQLITE], { cwd: dir, encoding: "utf8" });
      steps.push(
        judged(
          `SQLite opens on Node ${version} (the prebuilt binding, FTS5)`,
          opened.status === 0 ? undefined : opened.stderr.trim().split("\n").slice(0, 3).join(" / "),
        ),
      );
    }
    return steps;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
