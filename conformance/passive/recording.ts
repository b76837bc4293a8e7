import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { oneLine } from "../../src/errors/one-line.ts";

/** A file written as traffic comes: a recording, a findings log, the suite's exchanges. */
export interface Recording {
  write(text: string): void;
  /** Resolves once everything written is on disk, or at once when the file failed. */
  close(): Promise<void>;
}

/**
 * Opens `path` for writing, creating its folder. A file that cannot be opened (a folder, no
 * permission) rejects here, before anything listens, so a command can refuse in one line. A
 * failure later (the disk full) is said once on stderr and stops this file only: the proxy in
 * front of an API must never fall over because a recording could not be written.
 */
export async function openRecording(path: string): Promise<Recording> {
  await mkdir(dirname(path), { recursive: true });
  const out: WriteStream = createWriteStream(path);
  await new Promise<void>((resolve, reject) => {
    out.once("open", () => resolve());
    out.once("error", reject);
  });
  let failed = false;
  out.on("error", (err) => {
    if (failed) return;
    failed = true;
    console.error(`dealkit: cannot write ${path} (${oneLine(err)}); it is no longer recorded`);
  });
  return {
    write: (text) => {
      if (!failed) out.write(text);
    },
    close: () => (failed ? Promise.resolve() : new Promise<void>((resolve) => out.end(() => resolve()))),
  };
}
