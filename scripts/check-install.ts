// The package installed as its users install it, with the real npm and registry (the unit tests
// cannot: they run offline), on each Node binary given, default the one running this:
//   tsx scripts/check-install.ts [NODE_BINARY ...]
// For each: `npm install TARBALL` in an empty folder (timed; fails if anything compiled), then
// `dealkit --help` (start time, median of 5), `dealkit conformance --skip-slow`, `dealkit serve`
// stopped by SIGTERM, the client imported from plain Node ESM, and the conformance Action's steps
// (action.yml, its install step with this npm). Exit 1 when any step fails.
// bench/scenarios/install.ts reports the same measurements against their targets.
import { rmSync } from "node:fs";
import { measureInstall } from "../test/package/install.ts";
import { stagePackage } from "../test/package/stage.ts";

const binaries = process.argv.slice(2);
const staged = stagePackage();
let failed = false;
try {
  for (const node of binaries.length ? binaries : [process.execPath]) {
    const m = await measureInstall(staged, node);
    console.log(
      `Node ${m.nodeVersion}: install ${m.installSeconds.toFixed(1)} s (compiled: ${m.compiled ? "yes" : "no"}), ` +
        `--help ${m.helpSeconds.toFixed(2)} s (node alone ${m.nodeAloneSeconds.toFixed(2)} s)`,
    );
    for (const step of m.steps) {
      console.log(`  ${step.ok ? "ok  " : "FAIL"} ${step.name}${step.ok ? "" : `: ${step.detail}`}`);
      if (!step.ok) failed = true;
    }
  }
} finally {
  rmSync(staged.dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
