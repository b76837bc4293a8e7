import { importAlerts } from "../../../reference-server/import.ts";
import { DEFAULTS } from "../../../reference-server/index.ts";
import { parseOptions, UsageError } from "../args.ts";

export const summary = "load NDJSON or the real site's JSON files into the reference server's database";
export const usage = `usage: dealkit import FILE [--db PATH]

Loads FILE into the reference server's SQLite database (default ${DEFAULTS.dbPath}). FILE is NDJSON
(one item per line) or a JSON array such as the real site's push.json, push_{cateid}.json or
rank/{act}.json. Items with type "smzdm" go to the zdm stream, items with h5 are activities,
all others are alerts. Generated data is replaced by the first import; imported data is never
regenerated or shifted in time. Items that break the spec's rules are listed and skipped.`;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { db: { type: "string" } });
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0) throw new UsageError("give exactly one FILE");
  const report = await importAlerts(file, values.db ?? DEFAULTS.dbPath);
  console.log(
    `imported ${report.alerts} alerts, ${report.zdm} zdm items, ${report.activities} activities` +
      (report.replacedGenerated ? " (generated data replaced)" : ""),
  );
  for (const s of report.skipped.slice(0, 20)) console.error(`skipped ${s.at}: ${s.reason}`);
  if (report.skipped.length > 20) console.error(`... and ${report.skipped.length - 20} more skipped`);
  if (report.demo)
    console.error(`demo account created: uid ${report.demo.uid}, X-API-Key ${report.demo.key}`);
  return report.alerts + report.zdm + report.activities === 0 && report.skipped.length > 0 ? 1 : 0;
}
