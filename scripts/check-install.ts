// The package installed as its users install it, with the real npm and registry (the unit tests
// cannot: they run offline), on each Node binary given, default the one running this:
//   tsx scripts/check-install.ts [NODE_BINARY ...]
// For each: `npm install TARBALL` in an empty folder (timed; fails if anything compiled), then
// `dealkit --help` (start time, median of 5), `dealkit conformance --skip-slow`, `dealkit serve`
// stopped by SIGTERM, the client imported from plain Node ESM, and the conformance Action's steps
// (action.yml, its install step with this npm). Then `npm ci` of the checkout's lockfile in an
// empty folder: no warning about an install script allowScripts leaves undecided, nothing
// compiled, SQLite opening on each binary (test/package/clean-ci.ts). Exit 1 when any step fails.
// bench/scenarios/install.ts reports the same measurements against their targets.
import { rmSync } from "node:fs";
import { checkCleanCi } from "../test/package/clean-ci.ts";
import { measureInstall } from "../test/package/install.ts";
import { stagePackage } from "../test/package/stage.ts";

const binaries = process.argv.slice(2);
const staged = stagePackage();
let failed = false;

function report(steps: { name: string; ok: boolean; detail?: string }[]): void {
  for (const step of steps) {
    console.log(`  ${step.ok ? "ok  " : "FAIL"} ${step.name}${step.ok ? "" : `: ${step.detail}`}`);
    if (!step.ok) failed = true;
  }
}

try {
  for (const node of binaries.length ? binaries : [process.execPath]) {
    const m = await measureInstall(staged, node);
    console.log(
      `Node ${m.nodeVersion}: install ${m.installSeconds.toFixed(1)} s (compiled: ${m.compiled ? "yes" : "no"}), ` +
        `--help ${m.helpSeconds.toFixed(2)} s (node alone ${m.nodeAloneSeconds.toFixed(2)} s)`,
    );
    report(m.steps);
  }
  console.log("npm ci of the checkout's lockfile in an empty folder");
  report(checkCleanCi(binaries));
} finally {
  rmSync(staged.dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
