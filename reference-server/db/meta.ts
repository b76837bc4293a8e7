import type { Database } from "better-sqlite3";

/** The key/value facts the server keeps about its data (where it came from, its reference time). */
export interface DataInfo {
  /** "generated" data may be regenerated or shifted in time; "imported" data is never touched. */
  source?: "generated" | "imported";
  seed?: number;
  size?: number;
  /** Unix seconds the generated timestamps are relative to (moved forward by each shift). */
  referenceTime?: number;
}

export function readInfo(db: Database): DataInfo {
  const rows = db.prepare<[], { key: string; value: string }>("SELECT key, value FROM meta").all();
  const map = new Map(rows.map((r) => [r.key, r.value]));
  const num = (k: string) => (map.has(k) ? Number(map.get(k)) : undefined);
  return {
    source: map.get("source") as DataInfo["source"],
    seed: num("seed"),
    size: num("size"),
    referenceTime: num("reference_time"),
  };
}

export function writeInfo(db: Database, info: DataInfo): void {
  const set = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  const entries: [string, unknown][] = [
    ["source", info.source],
    ["seed", info.seed],
    ["size", info.size],
    ["reference_time", info.referenceTime],
  ];
  for (const [key, value] of entries) if (value !== undefined) set.run(key, String(value));
}
