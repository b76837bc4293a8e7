/**
 * The package as its users get it, for the tests: built into a staging folder (never the
 * checkout's dist/, which a developer may be using), packed with `npm pack`, and unpacked into
 * a consumer folder's node_modules. The consumer's other dependencies are links into the
 * checkout's node_modules: the tests run offline, so they cannot `npm install` from the registry
 * (scripts/check-install.ts does, and measures it).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const require = createRequire(import.meta.url);

interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
}

export const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;

export interface Staged {
  /** A scratch folder holding everything below. */
  dir: string;
  /** The packed tarball. */
  tarball: string;
  /** Paths inside the tarball, without the leading package/. */
  files: string[];
}

/** Builds and packs the package (tsx, tsc and npm pack: a few seconds). */
export function stagePackage(): Staged {
  const dir = mkdtempSync(join(tmpdir(), "dealkit-package-"));
  const src = join(dir, "src");
  mkdirSync(src);
  for (const f of ["package.json", "README.md", "bin"])
    cpSync(join(ROOT, f), join(src, f), { recursive: true });
  execFileSync(
    process.execPath,
    [require.resolve("tsx/cli"), join(ROOT, "scripts/build.ts"), "--out", join(src, "dist")],
    {
      stdio: "pipe",
    },
  );
  // --ignore-scripts: prepack would build again, into the checkout.
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
      cwd: src,
      encoding: "utf8",
    }),
  ) as { filename: string; files: { path: string }[] }[];
  const [info] = packed;
  if (!info) throw new Error("npm pack packed nothing");
  return { dir, tarball: join(dir, info.filename), files: info.files.map((f) => f.path).sort() };
}

/**
 * An empty project with the tarball installed as node_modules/dealkit and the package's
 * dependencies linked, plus whatever files the test writes. Returns its folder.
 */
export function consumerProject(staged: Staged, name: string, files: Record<string, string>): string {
  const dir = join(staged.dir, name);
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "dealkit"), { recursive: true });
  execFileSync("tar", ["xzf", staged.tarball, "-C", join(modules, "dealkit"), "--strip-components=1"]);
  for (const dep of Object.keys(manifest.dependencies)) {
    const target = join(ROOT, "node_modules", dep);
    const link = join(modules, dep);
    mkdirSync(join(link, ".."), { recursive: true });
    symlinkSync(target, link, "dir");
  }
  mkdirSync(join(modules, ".bin"));
  symlinkSync("../dealkit/bin/dealkit.js", join(modules, ".bin", "dealkit"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export interface Served {
  url: string;
  child: ChildProcess;
}

/**
 * `dealkit serve` from a project's node_modules/.bin (a small database in the project), with the
 * environment given (PATH picks the Node that runs it); resolves with its URL once it listens.
 */
export function serveFrom(project: string, env: NodeJS.ProcessEnv = process.env): Promise<Served> {
  const child = spawn(
    join(project, "node_modules/.bin/dealkit"),
    ["serve", "--port", "0", "--db", join(project, "data.db"), "--size", "300", "--seed", "3", "--quiet"],
    { cwd: project, env, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
      const m = /reference server on (http:\/\/\S+)/.exec(stderr);
      if (m?.[1]) resolve({ url: m[1], child });
    });
    child.on("exit", (code) => reject(new Error(`dealkit serve exited ${code}: ${stderr}`)));
  });
}

/** SIGTERM, then the exit code. */
export function stop(served: Served): Promise<number | null> {
  const exit = new Promise<number | null>((resolve) => served.child.on("exit", resolve));
  served.child.kill("SIGTERM");
  return exit;
}

/** A plain Node ESM script that imports the client and prints the size of a rank answer. */
export const ESM_CLIENT_SCRIPT = `import { createDealClient } from "dealkit/client";
import { loadSpec } from "dealkit";
const api = createDealClient({ baseUrl: process.argv[2] });
const { data } = await api.rank({ act: "yixiaoshi", limit: 3 });
const spec = await loadSpec();
console.log(JSON.stringify({ entries: data.length, version: spec.version, yaml: import.meta.resolve("dealkit/openapi.yaml") }));
`;
