import { existsSync, rmSync } from "node:fs";
import type { Database } from "better-sqlite3";
import { oneLine } from "../src/errors/one-line.ts";
import { loadSpec } from "../src/spec/load.ts";
import { ImportInputError, type ImportOptions, type ImportReport, importFile } from "./data/import.ts";
import { offsetFor } from "./data/time.ts";
import { connect, ensureDemoAccount } from "./db/open.ts";

export {
  DEFAULT_MAX_RECORD_BYTES,
  ImportInputError,
  type ImportOptions,
  type ImportReport,
} from "./data/import.ts";

/**
 * `dealkit import`: loads a file into a database file, creating it (and the demo account) if
 * needed. All or nothing (see importFile): when nothing is loaded, a database file this call
 * created is removed again. A file or database that cannot be read or written throws
 * ImportInputError with a one-line message.
 */
export async function importAlerts(
  file: string,
  dbPath: string,
  options: ImportOptions = {},
): Promise<ImportReport & { demo?: { uid: number; key: string } }> {
  const spec = await loadSpec();
  const existed = dbPath === ":memory:" || existsSync(dbPath);
  let db: Database;
  try {
    db = connect(dbPath);
  } catch (err) {
    throw new ImportInputError(`cannot open the database ${dbPath}: ${oneLine(err)}`);
  }
  let keep = existed;
  try {
    const report = await importFile(
      db,
      file,
      spec,
      offsetFor(spec.rankWindows.timezone, Date.now() / 1000),
      options,
    );
    if (!report.loaded) return report;
    keep = true;
    return { ...report, demo: ensureDemoAccount(db, process.env.DEALKIT_DEMO_KEY) };
  } catch (err) {
    // SQLite's own failures (locked, read-only, full disk, not a database) are the database's state.
    if (!(err instanceof ImportInputError) && /^SQLITE_/.test(String((err as { code?: unknown }).code)))
      throw new ImportInputError(`the database ${dbPath}: ${oneLine(err)}`);
    throw err;
  } finally {
    db.close();
    if (!keep) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  }
}
