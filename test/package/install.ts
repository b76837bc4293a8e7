/**
 * A real install of the packed package with npm, on a given Node binary, and what a user does
 * next, the GitHub Action included (its steps as written, with this npm). Used by scripts/check-install.ts (CI, both Node LTS lines) and bench/scenarios/install.ts
 * (the timing targets); it needs the npm registry or a warm npm cache, so no unit test runs it.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ACTIONS, runAction } from "../actions/run-action.ts";
import { ESM_CLIENT_SCRIPT, type Staged, serveFrom, stop } from "./stage.ts";

const exec = promisify(execFile);

export interface InstallMeasurement {
  nodeVersion: string;
  installSeconds: number;
  /** Whether anything was compiled during the install (a native build of better-sqlite3). */
  compiled: boolean;
  /** Median wall time of `dealkit --help`, and of `node -e 0` on the same binary. */
  helpSeconds: number;
  nodeAloneSeconds: number;
  steps: { name: string; ok: boolean; detail?: string }[];
}

function medianSeconds(runs: number, command: string, args: string[], env: NodeJS.ProcessEnv): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync(command, args, { env, stdio: "ignore" });
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)] ?? Number.NaN;
}

async function step(
  steps: InstallMeasurement["steps"],
  name: string,
  body: () => Promise<string | undefined>,
): Promise<void> {
  try {
    const problem = await body();
    steps.push(problem ? { name, ok: false, detail: problem } : { name, ok: true });
  } catch (err) {
    steps.push({ name, ok: false, detail: (err as Error).message.split("\n").slice(0, 3).join(" / ") });
  }
}

export async function measureInstall(staged: Staged, node: string): Promise<InstallMeasurement> {
  // The binary's folder first on PATH: npm's scripts and the bin's `#!/usr/bin/env node` use it.
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` };
  const nodeVersion = (await exec(node, ["--version"])).stdout.trim();
  const project = join(staged.dir, `install-${nodeVersion}`);
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  writeFileSync(join(project, "main.js"), ESM_CLIENT_SCRIPT);

  const t0 = performance.now();
  const install = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--foreground-scripts", staged.tarball],
    { cwd: project, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const installSeconds = (performance.now() - t0) / 1000;
  const output = `${install.stdout}${install.stderr}`;
  const compiled =
    /node-gyp|gyp info|prebuild-install/.test(output) ||
    existsSync(join(project, "node_modules/better-sqlite3/build"));
  const steps: InstallMeasurement["steps"] = [];
  steps.push(
    install.status === 0
      ? { name: "npm install TARBALL", ok: true }
      : { name: "npm install TARBALL", ok: false, detail: output.trim().split("\n").slice(-3).join(" / ") },
  );
  steps.push(
    compiled
      ? { name: "no native compile", ok: false, detail: "a build ran" }
      : { name: "no native compile", ok: true },
  );

  const bin = join(project, "node_modules/.bin/dealkit");
  await step(steps, "dealkit --help", async () => {
    const { stdout } = await exec(bin, ["--help"], { env });
    return stdout.includes("conformance") ? undefined : "no command list";
  });
  const helpSeconds = medianSeconds(5, bin, ["--help"], env);
  const nodeAloneSeconds = medianSeconds(5, node, ["-e", "0"], env);
  await step(steps, "dealkit conformance --skip-slow", async () => {
    const { stdout } = await exec(bin, ["conformance", "--skip-slow", "--seed", "7"], {
      env,
      timeout: 120_000,
    });
    return / 0 failed, 0 not exercised/.test(stdout) ? undefined : stdout.trim().split("\n").slice(-1)[0];
  });
  await step(
    steps,
    "dealkit serve, SIGTERM, exit 0; the client from plain Node ESM; the Action",
    async () => {
      const served = await serveFrom(project, env);
      const used = async () => {
        const client = await exec(node, ["main.js", served.url], { cwd: project, env }).then(
          ({ stdout }) =>
            (JSON.parse(stdout) as { entries: number }).entries > 0 ? undefined : `client printed ${stdout}`,
          (err: Error) => `client failed: ${err.message}`,
        );
        return client ?? (await actionAgainst(served.url, staged, env));
      };
      // The server is stopped whatever happened, or it would outlive the check.
      const problem = await used().catch(async (err: unknown) => {
        await stop(served);
        throw err;
      });
      const code = await stop(served);
      return problem ?? (code === 0 ? undefined : `dealkit serve exited ${code} on SIGTERM`);
    },
  );
  return { nodeVersion, installSeconds, compiled, helpSeconds, nodeAloneSeconds, steps };
}

/** The conformance Action's steps as written, its install step with the real npm: a problem, or undefined. */
async function actionAgainst(
  url: string,
  staged: Staged,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const workspace = join(staged.dir, `action-${process.hrtime.bigint()}`);
  mkdirSync(workspace);
  const run = await runAction(ACTIONS.conformance, {
    workspace,
    env,
    uses: { "actions/setup-node@v4": () => undefined },
    // No artifact upload here (test/actions/actions.test.ts checks it with a stand-in).
    inputs: {
      package: staged.tarball,
      "base-url": url,
      args: "--skip-slow --only rule:rank-*",
      artifact: "",
    },
  });
  if (!run.failed && run.outputs.passed === "true" && run.summary.includes("dealkit conformance: passed"))
    return undefined;
  return `the Action failed: ${run.log.trim().split("\n").slice(-6).join(" / ")}`;
}
