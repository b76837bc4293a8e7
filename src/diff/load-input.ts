import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { oneLine } from "../errors/one-line.ts";
import { readSpecText, SpecInputError, specDocumentOf } from "../spec/input.ts";
import type { DiffInput } from "./diff.ts";

const run = promisify(execFile);

export interface LoadedInput extends DiffInput {
  /** The text as read, for mapping pointers to lines. */
  text: string;
  /** The file path inside the work tree (for `git:REV:path`, the path part). */
  path: string;
}

/**
 * Reads a file, or `git:REV:path` (the file at a revision, via `git show`, from `cwd`), and
 * checks it is a spec (src/spec/input.ts): anything else is a SpecInputError naming `side`
 * ("base" or "head"), never a document compared as if it were one.
 */
export async function loadInput(spec: string, cwd = process.cwd(), side = "input"): Promise<LoadedInput> {
  const git = /^git:([^:]+):(.+)$/.exec(spec);
  const text = git
    ? await gitShow(git[1] as string, git[2] as string, spec, cwd, side)
    : await readSpecText(spec, side);
  return { label: spec, raw: specDocumentOf(text, side, spec), text, path: git ? (git[2] as string) : spec };
}

async function gitShow(rev: string, path: string, spec: string, cwd: string, side: string): Promise<string> {
  try {
    return (await run("git", ["show", `${rev}:${path}`], { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { stderr?: string };
    throw new SpecInputError(side, `${spec}: cannot be read (${oneLine(e.stderr?.trim() ? e.stderr : err)})`);
  }
}
