/**
 * `npm ci` on npm 11 warns about every dependency whose install script package.json's
 * `allowScripts` does not decide, and runs it. Regression: better-sqlite3 was undecided, so each
 * clean install warned and ran `node-gyp rebuild` (needing Python, make and Node's headers)
 * although the README promises no compile. It is denied: its prebuilt binary loads without it.
 * scripts/check-install.ts proves the same with a real `npm ci` and npm's own `install-scripts ls`;
 * this runs offline, from the lockfile and the installed packages.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { manifest, ROOT } from "./stage.ts";

const require = createRequire(import.meta.url);

interface Lockfile {
  packages: Record<string, { version?: string }>;
}

/**
 * The install scripts npm would run for each locked package, as npm 11 enumerates them:
 * preinstall, install, postinstall, and a synthetic `node-gyp rebuild` beside a binding.gyp when
 * the package has no install or preinstall of its own. `gypfile: false` does not opt out on a
 * lockfile-driven install (npm reads the lockfile's copy of the manifest, which omits it): seen
 * with better-sqlite3 13.2.0.
 */
function installScripts(): { name: string; scripts: string[] }[] {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as Lockfile;
  return Object.keys(lock.packages)
    .filter((path) => path.startsWith("node_modules/") && existsSync(join(ROOT, path, "package.json")))
    .map((path) => {
      const pkg = JSON.parse(readFileSync(join(ROOT, path, "package.json"), "utf8")) as {
        name: string;
        scripts?: Record<string, string>;
      };
      const scripts = { ...pkg.scripts };
      if (!scripts.preinstall && !scripts.install && existsSync(join(ROOT, path, "binding.gyp")))
        scripts.install = "node-gyp rebuild";
      const run = ["preinstall", "install", "postinstall"].filter((event) => scripts[event]);
      return { name: pkg.name, scripts: run.map((event) => `${event}: ${scripts[event]}`) };
    })
    .filter((p) => p.scripts.length > 0);
}

describe("npm ci: install scripts", () => {
  it("decides every dependency's install script in allowScripts (npm warns about the rest, and runs them)", () => {
    const decided = (manifest as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const found = installScripts();
    expect(found.map((p) => p.name)).toContain("better-sqlite3");
    expect(found.filter((p) => !Object.hasOwn(decided, p.name))).toEqual([]);
  });

  it("needs no build of better-sqlite3: its prebuilt binary for this platform opens a database", () => {
    const binding = join(dirname(require.resolve("better-sqlite3/package.json")), "lib", "binding.js");
    const prebuilt = (require(binding) as { getPrebuildPath(): string | null }).getPrebuildPath();
    expect(prebuilt, `no prebuilt better-sqlite3 for ${process.platform}-${process.arch}`).toMatch(
      /prebuilds[/\\][a-z0-9-]+\.node$/,
    );
    const db = new Database(":memory:", { nativeBinding: prebuilt ?? undefined });
    try {
      // FTS5 too: the reference server's word search needs it.
      db.exec("CREATE VIRTUAL TABLE t USING fts5(x); INSERT INTO t VALUES ('京东 红包')");
      expect(db.prepare("SELECT count(*) AS n FROM t WHERE t MATCH '红包'").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });
});
