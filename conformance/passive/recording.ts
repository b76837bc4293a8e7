import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { oneLine } from "../../src/errors/one-line.ts";

/**
 * Bytes a recording may have waiting for the disk: past it, lines are dropped and counted (said
 * on stderr when it closes), so a disk slower than the traffic cannot grow the proxy's memory.
 */
export const RECORDING_BACKLOG_BYTES = 32 * 1024 * 1024;

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
  let dropped = 0;
  out.on("error", (err) => {
    if (failed) return;
    failed = true;
    console.error(`dealkit: cannot write ${path} (${oneLine(err)}); it is no longer recorded`);
  });
  return {
    write: (text) => {
      if (failed) return;
      if (out.writableLength > RECORDING_BACKLOG_BYTES) dropped++;
      else out.write(text);
    },
    close: () => {
      if (dropped > 0)
        console.error(
          `dealkit: ${dropped} lines not written to ${path}: the disk fell behind by more than ${RECORDING_BACKLOG_BYTES / 1024 / 1024} MB`,
        );
      return failed ? Promise.resolve() : new Promise<void>((resolve) => out.end(() => resolve()));
    },
  };
}
