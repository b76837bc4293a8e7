/**
 * Runs a composite action's steps here, the way a GitHub runner does, so the tests exercise the
 * action.yml files themselves: inputs with their defaults, `${{ }}` expressions, `if:`
 * conditions, each `run:` script under `bash --noprofile --norc -eo pipefail`, step env, and the
 * GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and GITHUB_STEP_SUMMARY files between steps. A `uses:`
 * step runs only if the caller gives a stand-in for it (setup-node is one: the test already runs
 * on the Node it wants).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { parse } from "yaml";
import { type Context, condition, substitute } from "./expressions.ts";

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
}

export interface ActionFile {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export interface StepResult {
  name: string;
  outcome: "success" | "failure" | "skipped";
}

export interface ActionRun {
  /** The action's outputs, as a calling workflow sees them. */
  outputs: Record<string, string>;
  /** Everything the steps appended to the job summary. */
  summary: string;
  /** Every step's stdout and stderr, in order. */
  log: string;
  steps: StepResult[];
  /** Whether the action failed (a step failed), as `steps.<id>.outcome` of the caller. */
  failed: boolean;
}

export interface RunActionOptions {
  /** Inputs given by the workflow (`with:`). */
  inputs: Record<string, string>;
  /** The job's working directory (GITHUB_WORKSPACE). */
  workspace: string;
  /** Environment the job runs with (PATH picks the node, npm and dealkit the steps find). */
  env: NodeJS.ProcessEnv;
  /** Stand-ins for `uses:` steps, by the action they name; what one returns are its step's outputs. */
  uses?: Record<string, (with_: Record<string, string>) => Record<string, string> | undefined>;
  runNumber?: number;
}

export function readAction(path: string): ActionFile {
  return parse(readFileSync(path, "utf8")) as ActionFile;
}

/** Parses `name=value` lines and `name<<DELIM` blocks, as the runner reads GITHUB_OUTPUT and GITHUB_ENV. */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block?.[1] && block[2]) {
      const end = lines.indexOf(block[2], i + 1);
      if (end < 0) throw new Error(`unterminated ${block[1]}<<${block[2]}`);
      out[block[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    } else if (line.trim() !== "") {
      throw new Error(`not a command file line: ${line}`);
    }
  }
  return out;
}

function runScript(
  script: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * The log as GitHub shows it: an `::add-mask::VALUE` command is not shown, and VALUE is replaced
 * by *** from then on (in this output and every later one).
 */
function masked(output: string, masks: string[]): string {
  const shown: string[] = [];
  for (const line of output.split("\n")) {
    const mask = /^::add-mask::(.+)$/.exec(line)?.[1];
    if (mask) masks.push(mask);
    else shown.push(masks.reduce((text, m) => text.replaceAll(m, "***"), line));
  }
  return shown.join("\n");
}

/** Runs the composite action at `actionPath` (its action.yml) with the given inputs. */
export async function runAction(actionPath: string, options: RunActionOptions): Promise<ActionRun> {
  const action = readAction(join(actionPath, "action.yml"));
  if (action.runs.using !== "composite") throw new Error(`${actionPath} is not a composite action`);
  const temp = mkdtempSync(join(tmpdir(), "dealkit-runner-"));
  const files = {
    GITHUB_OUTPUT: join(temp, "output"),
    GITHUB_ENV: join(temp, "env"),
    GITHUB_PATH: join(temp, "path"),
    GITHUB_STEP_SUMMARY: join(temp, "summary.md"),
  };
  writeFileSync(files.GITHUB_PATH, "");
  writeFileSync(files.GITHUB_ENV, "");
  writeFileSync(files.GITHUB_STEP_SUMMARY, "");
  const runnerTemp = join(temp, "runner-temp");
  mkdirSync(runnerTemp);
  const runNumber = String(options.runNumber ?? 7);
  const github = { action_path: actionPath, workspace: options.workspace, run_number: runNumber };
  const base: Context = { github, runner: { temp: runnerTemp }, steps: {} };

  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    const given = options.inputs[name];
    if (given === undefined && spec.required) throw new Error(`input ${name} is required`);
    inputs[name] = given ?? substitute(String(spec.default ?? ""), base);
  }
  for (const name of Object.keys(options.inputs))
    if (!(name in (action.inputs ?? {}))) throw new Error(`${actionPath} has no input ${name}`);
  const context: Context = { ...base, inputs };
  const steps = base.steps as Record<string, { outputs: Record<string, string>; outcome: string }>;

  const status = { failed: false };
  const results: StepResult[] = [];
  let log = "";
  const masks: string[] = [];
  let addedEnv: Record<string, string> = {};
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${index + 1}`;
    if (!condition(step.if, context, status)) {
      // As on GitHub: a skipped step is there, with no outputs.
      if (step.id) steps[step.id] = { outputs: {}, outcome: "skipped" };
      results.push({ name, outcome: "skipped" });
      continue;
    }
    let outcome: StepResult["outcome"] = "success";
    let stepOutputs: Record<string, string> = {};
    if (step.uses) {
      const standIn = options.uses?.[step.uses];
      if (!standIn) throw new Error(`no stand-in for uses: ${step.uses}`);
      const with_ = Object.fromEntries(
        Object.entries((step as { with?: Record<string, string> }).with ?? {}).map(([k, v]) => [
          k,
          substitute(String(v), context),
        ]),
      );
      stepOutputs = standIn(with_) ?? {};
    } else {
      if (step.shell !== "bash") throw new Error(`${name}: only shell: bash is run here (got ${step.shell})`);
      if (typeof step.run !== "string")
        throw new Error(`${name}: run: is not a script (${String(step.run)})`);
      writeFileSync(files.GITHUB_OUTPUT, "");
      const extraPath = readFileSync(files.GITHUB_PATH, "utf8").split("\n").filter(Boolean).reverse();
      const env: NodeJS.ProcessEnv = {
        ...options.env,
        ...addedEnv,
        ...files,
        GITHUB_ACTION_PATH: actionPath,
        GITHUB_WORKSPACE: options.workspace,
        GITHUB_RUN_NUMBER: runNumber,
        RUNNER_TEMP: runnerTemp,
        CI: "true",
        GITHUB_ACTIONS: "true",
        PATH: [...extraPath, options.env.PATH ?? ""].join(delimiter),
      };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(String(v), context);
      const script = join(temp, `step-${index}.sh`);
      writeFileSync(script, step.run);
      const { code, output } = await runScript(script, env, options.workspace);
      log += `::group::${name}\n${masked(output, masks)}::endgroup::\n`;
      if (code !== 0) outcome = "failure";
      stepOutputs = parseCommandFile(readFileSync(files.GITHUB_OUTPUT, "utf8"));
      addedEnv = { ...addedEnv, ...parseCommandFile(readFileSync(files.GITHUB_ENV, "utf8")) };
    }
    if (outcome === "failure") status.failed = true;
    if (step.id) steps[step.id] = { outputs: stepOutputs, outcome };
    results.push({ name, outcome });
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs ?? {}).map(([k, v]) => [k, substitute(String(v.value), context)]),
  );
  const summary = readFileSync(files.GITHUB_STEP_SUMMARY, "utf8");
  // The runner's temp folder holds the installed package: megabytes per run.
  rmSync(temp, { recursive: true, force: true });
  return { outputs, summary, log, steps: results, failed: status.failed };
}

/** The folder of this repository's root action, and of the diff action. */
export const ACTIONS = {
  conformance: join(dirname(new URL(import.meta.url).pathname), "../.."),
  diff: join(dirname(new URL(import.meta.url).pathname), "../../actions/diff"),
  client: join(dirname(new URL(import.meta.url).pathname), "../../actions/client"),
};
