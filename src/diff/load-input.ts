import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { parseDocument } from "../spec/load.ts";
import type { DiffInput } from "./diff.ts";

const run = promisify(execFile);

/** An input that cannot be read or parsed: the CLI exits 2. */
export class InputError extends Error {}

export interface LoadedInput extends DiffInput {
  /** The text as read, for mapping pointers to lines. */
  text: string;
  /** The file path inside the work tree (for `git:REV:path`, the path part). */
  path: string;
}

/** Reads a file, or `git:REV:path` (the file at a revision, via `git show`, from `cwd`). */
export async function loadInput(spec: string, cwd = process.cwd()): Promise<LoadedInput> {
  const git = /^git:([^:]+):(.+)$/.exec(spec);
  let text: string;
  try {
    text = git
      ? (await run("git", ["show", `${git[1]}:${git[2]}`], { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout
      : await readFile(spec, "utf8");
  } catch (err) {
    throw new InputError(`cannot read ${spec}: ${firstLine(err)}`);
  }
  try {
    return { label: spec, raw: parseDocument(text), text, path: git ? (git[2] as string) : spec };
  } catch (err) {
    throw new InputError(`cannot parse ${spec}: ${firstLine(err)}`);
  }
}

function firstLine(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return (
    String(e.stderr || e.message || err)
      .trim()
      .split("\n")[0] ?? ""
  );
}
