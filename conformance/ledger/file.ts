/**
 * The ledger file: read at a run's start, and updated at its end by read-merge-write under a lock
 * file, written to a temporary file and renamed over the old one (a reader never sees half a
 * ledger). Two runs that race both land: the second one re-reads what the first wrote and merges
 * its own delta into it.
 */
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { InputError } from "../../src/errors/input-error.ts";
import { ParseError, parseJsonText } from "../../src/errors/parse-text.ts";
import { mergeLedgers } from "./merge.ts";
import { decodeLedger, encodeLedger } from "./storage.ts";
import { emptyLedger, LEDGER_FORMAT, LEDGER_VERSION, type Ledger } from "./types.ts";

/** A file that is not a ledger this version can read: a usage error, never overwritten. */
export class LedgerError extends InputError {}

export async function readLedger(path: string): Promise<Ledger> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyLedger();
    throw new LedgerError(`--ledger ${path}: ${(err as Error).message}`);
  }
  let value: Partial<Ledger>;
  try {
    value = decodeLedger(text) as Partial<Ledger>;
  } catch (err) {
    throw new LedgerError(
      `--ledger ${located(text, path) ?? `${path} cannot be read: ${(err as Error).message}`}`,
    );
  }
  if (
    value?.format !== LEDGER_FORMAT ||
    typeof value.kinds !== "object" ||
    typeof value.versions !== "object"
  )
    throw new LedgerError(`--ledger ${path} is not a dealkit ledger (format "${LEDGER_FORMAT}")`);
  if (value.version !== LEDGER_VERSION)
    throw new LedgerError(
      `--ledger ${path} has version ${String(value.version)}; this dealkit reads version ${LEDGER_VERSION}`,
    );
  return value as Ledger;
}

/** A syntax error's file:line:column and snippet (decodeLedger's JSON.parse gives neither), or undefined. */
function located(text: string, path: string): string | undefined {
  try {
    parseJsonText(text, path);
  } catch (err) {
    if (err instanceof ParseError) return err.message;
  }
  return undefined;
}

export interface LockOptions {
  /** How long to wait for another run's lock before giving up (ms). */
  waitMs?: number;
  /** A lock older than this is a crashed run's and is taken over (ms). */
  staleMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function acquire(lock: string, options: LockOptions): Promise<() => Promise<void>> {
  const waitMs = options.waitMs ?? 30_000;
  const staleMs = options.staleMs ?? 120_000;
  const sleep = options.sleep ?? pause;
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, "wx");
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > staleMs) await rm(lock, { force: true });
    else if (Date.now() > deadline)
      throw new LedgerError(`${lock} is held by another run (remove it if no run is writing the ledger)`);
    else await sleep(Math.min(50 * 2 ** Math.min(attempt, 5), 1000));
  }
}

/**
 * Merges a run's delta into the file and returns the ledger as written. The file is re-read under
 * the lock, so whatever another run wrote since this one began is kept.
 */
export async function updateLedger(path: string, delta: Ledger, options: LockOptions = {}): Promise<Ledger> {
  await mkdir(dirname(path), { recursive: true });
  const release = await acquire(`${path}.lock`, options);
  try {
    const merged = mergeLedgers(await readLedger(path), delta);
    const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temporary, encodeLedger(merged));
    await rename(temporary, path);
    return merged;
  } finally {
    await release();
  }
}
