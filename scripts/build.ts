// Builds the published package: JavaScript and declarations compiled by tsc
// (tsconfig.build.json), and the spec files the library reads at run time, laid out so that the
// paths in src/spec/paths.ts hold in the build as they do in a checkout.
//   tsx scripts/build.ts [--out DIR]     (default dist/; the package tests build elsewhere)
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("../", import.meta.url));
const { values } = parseArgs({ options: { out: { type: "string" } } });
const out = resolve(values.out ?? join(root, "dist"));
const require = createRequire(import.meta.url);

rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json"), "--outDir", out],
  { stdio: "inherit" },
);

// tsc rewrites ".ts" to ".js" in emitted JavaScript but leaves declarations importing "./x.ts",
// a file the package does not ship: name the ".js" file instead, as every declaration reader
// (older TypeScript, api-extractor, bundlers' dts plugins) expects.
const RELATIVE_TS = /(from\s+|import\(\s*)(["'])(\.{1,2}\/[^"']*?)\.ts\2/g;
for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(RELATIVE_TS, "$1$2$3.js$2");
  if (fixed !== text) writeFileSync(file, fixed);
}

for (const f of ["openapi.yaml", "x-conformance.schema.json", "README.md", "releases"])
  cpSync(join(root, "openapi", f), join(out, "openapi", f), { recursive: true });
// The mock's data (mocks/fixtures/store.ts reads it beside its module).
cpSync(join(root, "mocks/fixtures/fixtures.json"), join(out, "mocks/fixtures/fixtures.json"));
console.log(`built ${out}`);
