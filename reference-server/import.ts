import { loadSpec } from "../src/spec/load.ts";
import { type ImportReport, importFile } from "./data/import.ts";
import { offsetFor } from "./data/time.ts";
import { connect, ensureDemoAccount } from "./db/open.ts";

/** `dealkit import`: loads a file into a database file, creating it (and the demo account) if needed. */
export async function importAlerts(
  file: string,
  dbPath: string,
): Promise<ImportReport & { demo?: { uid: number; key: string } }> {
  const spec = await loadSpec();
  const db = connect(dbPath);
  try {
    const report = await importFile(db, file, spec, offsetFor(spec.rankWindows.timezone, Date.now() / 1000));
    return { ...report, demo: ensureDemoAccount(db, process.env.DEALKIT_DEMO_KEY) };
  } finally {
    db.close();
  }
}
