import {
  DEFAULT_MAX_RECORD_BYTES,
  ImportInputError,
  type ImportReport,
  importAlerts,
} from "../../reference-server/import.ts";
import { DEFAULTS } from "../../reference-server/index.ts";
import { debugHint, oneLine } from "../../src/errors/one-line.ts";
import { intOption, parseOptions, UsageError } from "../args.ts";

/**
 * The largest --max-record-bytes: indexing an alert for search holds about 150 times its text
 * in memory for a moment (a 1 MiB record: ~150 MB; a 15 MiB one: ~1.9 GB, a 120 MiB one aborts).
 */
const MAX_RECORD_BYTES_LIMIT = 8 * 1024 * 1024;

export const usage = `usage: dealkit import FILE [--db PATH] [--skip-invalid] [--max-record-bytes N]

Loads FILE into the reference server's SQLite database (default ${DEFAULTS.dbPath}). FILE is NDJSON
(one item per line) or a JSON array such as the real site's push.json, push_{cateid}.json or
rank/{act}.json; a UTF-8 byte order mark is accepted. Items with type "smzdm" go to the zdm
stream, items with h5 are activities, all others are alerts. Generated data is replaced by the
first import; imported data is never regenerated or shifted in time.
All or nothing: when any record is rejected (not JSON, over the size limit, or breaking the
spec's rules) nothing is loaded and the rejected records are listed; --skip-invalid loads the
valid ones and lists the rejected ones. --max-record-bytes N: the largest line or array item,
default ${DEFAULT_MAX_RECORD_BYTES} (1 MiB), at most ${MAX_RECORD_BYTES_LIMIT} (8 MiB); a longer one is rejected by
its size without being read into memory.
Exit: 0 loaded; 1 records rejected (nothing loaded without --skip-invalid) or no valid item in
FILE; 2 bad options, or FILE (or the database) unreadable or not well-formed JSON.`;

/** Rejected records listed on the terminal (the count is always given). */
const SHOWN = 5;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    db: { type: "string" },
    "skip-invalid": { type: "boolean" },
    "max-record-bytes": { type: "string" },
  });
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0) throw new UsageError("give exactly one FILE");
  const maxRecordBytes = intOption(
    "max-record-bytes",
    values["max-record-bytes"],
    16,
    MAX_RECORD_BYTES_LIMIT,
  );
  const skipInvalid = values["skip-invalid"] ?? false;
  let report: Awaited<ReturnType<typeof importAlerts>>;
  try {
    report = await importAlerts(file, values.db ?? DEFAULTS.dbPath, { maxRecordBytes, skipInvalid });
  } catch (err) {
    if (err instanceof ImportInputError) {
      console.error(`dealkit import: ${err.message}; nothing loaded`);
      return 2;
    }
    const message = oneLine(err);
    console.error(`dealkit import: internal error: ${message}${debugHint(err)}`);
    return 2;
  }
  const valid = report.alerts + report.zdm + report.activities;
  if (!report.loaded) {
    if (report.rejected === 0) {
      console.error(`dealkit import: ${file} holds no items; nothing loaded`);
      return 1;
    }
    console.error(
      `dealkit import: ${file}: ${report.rejected} of ${report.rejected + valid} records rejected; nothing loaded, the database is unchanged`,
    );
    listRejects(report);
    console.error(
      valid > 0 && !skipInvalid
        ? `Fix them, or run again with --skip-invalid to load the ${valid} valid records.`
        : "No valid record to load.",
    );
    return 1;
  }
  console.log(
    `imported ${report.alerts} alerts, ${report.zdm} zdm items, ${report.activities} activities` +
      (report.replacedGenerated ? " (generated data replaced)" : ""),
  );
  if (report.rejected > 0) {
    console.error(`dealkit import: skipped ${report.rejected} rejected records (--skip-invalid)`);
    listRejects(report);
  }
  if (report.demo)
    console.error(`demo account created: uid ${report.demo.uid}, X-API-Key ${report.demo.key}`);
  return 0;
}

function listRejects(report: ImportReport): void {
  for (const r of report.rejects.slice(0, SHOWN)) console.error(`  ${r.at}: ${r.reason}`);
  if (report.rejected > SHOWN) console.error(`  ... and ${report.rejected - SHOWN} more`);
}
