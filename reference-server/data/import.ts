import type { Database } from "better-sqlite3";
import type { Spec } from "../../src/spec/spec.ts";
import { IndexChanges } from "../db/doc-index.ts";
import { readInfo, writeInfo } from "../db/meta.ts";
import { clearData, renumberIfLate, settleAfterBulkWrite, writeRows } from "../db/write.ts";
import { DEFAULT_MAX_RECORD_BYTES, type RawRecord, readRecords } from "./import-read.ts";
import type { ActivityRow, AlertRow, Dataset, ZdmRow } from "./records.ts";
import { localStamp } from "./time.ts";

export { DEFAULT_MAX_RECORD_BYTES, ImportInputError } from "./import-read.ts";

/** Relative links in the real site's files are relative to this origin. */
const SITE = "https://new.xianbao.fun";
/** Valid items are written in batches of this many (memory stays bounded for any file). */
const BATCH = 2000;
/** How many rejected records a report lists (it counts them all). */
export const REJECTS_KEPT = 100;

export interface ImportOptions {
  /** The largest record (NDJSON line or array item) in bytes; longer ones are rejected. Default 1 MiB. */
  maxRecordBytes?: number;
  /** Load the valid items even when some records are rejected (default: reject the whole file). */
  skipInvalid?: boolean;
}

export interface Rejected {
  /** `line N` (NDJSON) or `item N (line L)` (JSON array, items counted from 1). */
  at: string;
  line: number;
  reason: string;
}

export interface ImportReport {
  /** Valid items of each kind in the file (written only when `loaded`). */
  alerts: number;
  zdm: number;
  activities: number;
  /** Records that could not be used: not JSON, over the size limit, or breaking the spec's rules. */
  rejected: number;
  /** The first REJECTS_KEPT of them, in file order. */
  rejects: Rejected[];
  /**
   * True when the items were written (one transaction). False, with the database left exactly as
   * it was, when a record was rejected and skipInvalid was not given, or no valid item was found.
   */
  loaded: boolean;
  /** True when the generated placeholder data was removed first. */
  replacedGenerated: boolean;
}

/** One checked item of an import file, sorted by kind. */
export type Item =
  | { kind: "alert"; row: AlertRow }
  | { kind: "zdm"; row: ZdmRow }
  | { kind: "activity"; row: ActivityRow };

/**
 * Checks one item of an import file and sorts it by its shape: `type: "smzdm"` is a zdm item,
 * one with `h5` an activity, anything else an alert. Items are normalised to the spec's rules
 * (known category, price only on priced categories, absolute URLs, dates recomputed in the spec's
 * time zone); an item that breaks them throws an Error saying why.
 */
export function checkItem(value: unknown, spec: Spec, zoneOffset: number): Item {
  const item = object(value);
  if (item.type === "smzdm") return { kind: "zdm", row: zdmItem(item) };
  if ("h5" in item) return { kind: "activity", row: activityItem(item) };
  return { kind: "alert", row: alertItem(item, spec, zoneOffset) };
}

/**
 * Imports a file (NDJSON or a JSON array, read as a stream: see readRecords) into the database,
 * all or nothing: one transaction, written in batches as the file is read, committed only when
 * every record was valid (or skipInvalid is set and at least one was), rolled back otherwise.
 * Generated data is a placeholder: it is removed first (in the same transaction). The connection
 * is inside that transaction until the promise settles: it must not be shared meanwhile. A file
 * that cannot be read or is a malformed JSON array throws ImportInputError (nothing written).
 */
export async function importFile(
  db: Database,
  path: string,
  spec: Spec,
  zoneOffset: number,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const report: ImportReport = {
    alerts: 0,
    zdm: 0,
    activities: 0,
    rejected: 0,
    rejects: [],
    loaded: false,
    replacedGenerated: false,
  };
  const skipInvalid = options.skipInvalid ?? false;
  const generated = readInfo(db).source === "generated";
  const batches = new ImportBatches(db, report, skipInvalid);
  db.exec("BEGIN IMMEDIATE");
  try {
    if (generated) clearData(db);
    for await (const record of readRecords(path, options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES)) {
      if ("reason" in record) batches.reject(record);
      else batches.add(record, spec, zoneOffset);
    }
    const valid = report.alerts + report.zdm + report.activities;
    if (valid === 0 || (report.rejected > 0 && !skipInvalid)) {
      db.exec("ROLLBACK");
      return report;
    }
    batches.finish();
    // A file out of time order leaves most doc numbers out of it: search would walk past them.
    renumberIfLate(db);
    writeInfo(db, { source: "imported" });
    db.exec("COMMIT");
  } catch (err) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw err;
  }
  report.loaded = true;
  report.replacedGenerated = generated;
  settleAfterBulkWrite(db);
  return report;
}

/** The records of one import on their way to the database: checked, counted, written BATCH rows at a time. */
class ImportBatches {
  private batch: Dataset = emptyDataset();
  private batched = 0;
  private readonly cates = new Set<string>();
  // One for the whole import: each token's set is rewritten once, after the last batch.
  private readonly index: IndexChanges;

  constructor(
    private readonly db: Database,
    private readonly report: ImportReport,
    private readonly skipInvalid: boolean,
  ) {
    this.index = new IndexChanges(db);
  }

  reject(r: Rejected): void {
    this.report.rejected++;
    if (this.report.rejects.length < REJECTS_KEPT) this.report.rejects.push(r);
    // Without skipInvalid nothing will be written: stop collecting, keep reading to report all.
    if (!this.skipInvalid) {
      this.batch = emptyDataset();
      this.batched = 0;
    }
  }

  add(record: Extract<RawRecord, { value: unknown }>, spec: Spec, zoneOffset: number): void {
    let item: Item;
    try {
      item = checkItem(record.value, spec, zoneOffset);
    } catch (err) {
      this.reject({ at: record.at, line: record.line, reason: (err as Error).message });
      return;
    }
    const { report, batch } = this;
    if (item.kind === "alert") report.alerts++;
    else if (item.kind === "zdm") report.zdm++;
    else report.activities++;
    if (report.rejected > 0 && !this.skipInvalid) return;
    if (item.kind === "alert") batch.alerts.push(item.row);
    else if (item.kind === "zdm") batch.zdm.push(item.row);
    else {
      batch.activities.push(item.row);
      if (!this.cates.has(item.row.cate)) {
        this.cates.add(item.row.cate);
        batch.activityCategories.push({ id: item.row.cate, name: item.row.cate });
      }
    }
    if (++this.batched >= BATCH) this.flush();
  }

  /** The last batch, then the search index's changes of the whole import. */
  finish(): void {
    this.flush();
    this.index.flush();
  }

  private flush(): void {
    if (this.batched > 0) writeRows(this.db, this.batch, false, this.index);
    this.batch = emptyDataset();
    this.batched = 0;
  }
}

function emptyDataset(): Dataset {
  return { alerts: [], zdm: [], activities: [], activityCategories: [] };
}

function object(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error("not a JSON object");
  return value as Record<string, unknown>;
}

function int(value: unknown, name: string, min = 0): number {
  const n = typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min)
    throw new Error(`${name} must be an integer >= ${min}`);
  return n;
}

function text(value: unknown, name: string, required = true): string {
  if (typeof value === "string" && (value.trim() !== "" || !required)) return value;
  if (value === undefined || value === null) {
    if (required) throw new Error(`${name} is required`);
    return "";
  }
  if (typeof value === "number") return String(value);
  throw new Error(`${name} must be a string`);
}

function nullableText(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function price(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : null;
}

function absolute(url: unknown, name: string): string {
  const raw = text(url, name);
  const resolved = new URL(raw, SITE);
  if (resolved.protocol !== "https:" && resolved.protocol !== "http:")
    throw new Error(`${name} must be an http(s) URL`);
  return resolved.href;
}

function alertItem(item: Record<string, unknown>, spec: Spec, zoneOffset: number): AlertRow {
  const category = spec.category(text(item.cateid ?? item.cate, "cateid"));
  if (!category) throw new Error(`cateid ${String(item.cateid)} is not a category of the spec`);
  const shijianchuo =
    item.shijianchuo !== undefined ? int(item.shijianchuo, "shijianchuo") : fromLocal(item, zoneOffset);
  const tags = Array.isArray(item.tags)
    ? item.tags.filter((t): t is string => typeof t === "string" && t !== "")
    : typeof item.tags === "string"
      ? item.tags
          .split(/[,，]/)
          .map((t) => t.trim())
          .filter(Boolean)
      : [];
  return {
    id: int(item.id, "id", 1),
    title: text(item.title, "title"),
    content: text(item.content, "content", false),
    ...localStamp(shijianchuo, zoneOffset),
    shijianchuo,
    cateid: category.id,
    catename: category.name,
    comments: item.comments === undefined ? 0 : int(item.comments, "comments"),
    louzhu: text(item.louzhu, "louzhu", false),
    louzhuregtime: nullableText(item.louzhuregtime),
    url: absolute(item.url, "url"),
    yuanurl: nullableText(item.yuanurl),
    // The spec's rule: only priced categories carry prices.
    price: category.priced ? price(item.price) : null,
    tags: JSON.stringify([...new Set(tags)]),
  };
}

/** The real site's files always carry shijianchuo; without it, datetime + shorttime in the spec's zone. */
function fromLocal(item: Record<string, unknown>, zoneOffset: number): number {
  const date = text(item.datetime, "datetime or shijianchuo");
  const time = typeof item.shorttime === "string" ? item.shorttime : "00:00";
  const ms = Date.parse(`${date}T${time}:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(ms)) throw new Error("datetime must be YYYY-MM-DD");
  return ms / 1000 - zoneOffset;
}

function zdmItem(item: Record<string, unknown>): ZdmRow {
  const p = price(item.price);
  if (p === null) throw new Error("a zdm item needs a price");
  return {
    id: int(item.id, "id", 1),
    title: text(item.title, "title"),
    price: p,
    mall_name: text(item.mall_name, "mall_name", false),
    brand: nullableText(item.brand),
    category_name: text(item.category_name, "category_name", false),
    pic: absolute(item.pic, "pic"),
    posttime: int(item.posttime, "posttime"),
    url: absolute(item.url, "url"),
    content: text(item.content, "content", false),
  };
}

function activityItem(item: Record<string, unknown>): ActivityRow {
  const h5 = absolute(item.h5, "h5");
  if (!h5.startsWith("https://")) throw new Error("h5 must be an https link");
  const cate = text(item.cate, "cate");
  if (!/^[a-z0-9_-]{1,32}$/.test(cate)) throw new Error("cate must match ^[a-z0-9_-]{1,32}$");
  const date = (v: unknown, name: string) => {
    const s = text(v, name);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) throw new Error(`${name} must be YYYY-MM-DD`);
    return s;
  };
  return {
    id: int(item.id, "id", 1),
    name: text(item.name, "name"),
    desc: text(item.desc, "desc", false),
    cate,
    h5,
    pic: absolute(item.pic, "pic"),
    start_time: date(item.start_time, "start_time"),
    end_time: item.end_time === null || item.end_time === undefined ? null : date(item.end_time, "end_time"),
  };
}
