import { readFile } from "node:fs/promises";
import type { Database } from "better-sqlite3";
import type { Spec } from "../../src/spec/spec.ts";
import { readInfo, writeInfo } from "../db/meta.ts";
import { clearData, settleAfterBulkWrite, writeDataset } from "../db/write.ts";
import type { ActivityRow, AlertRow, Dataset, ZdmRow } from "./records.ts";
import { localStamp } from "./time.ts";

/** Relative links in the real site's files are relative to this origin. */
const SITE = "https://new.xianbao.fun";

export interface ImportReport {
  alerts: number;
  zdm: number;
  activities: number;
  /** Items that could not be used, with the reason (line for NDJSON, index for arrays). */
  skipped: { at: string; reason: string }[];
  /** True when the generated placeholder data was removed first. */
  replacedGenerated: boolean;
}

/**
 * Reads NDJSON (one item per line) or a JSON array (the real site's push.json, push_{cateid}.json
 * or rank/{act}.json) and sorts each item by its shape: `type: "smzdm"` is a zdm item, one with
 * `h5` an activity, anything else an alert. Items are checked and normalised to the spec's
 * rules (known category, price only on priced categories, absolute URLs, dates recomputed in
 * the spec's time zone); the ones that fail are reported, not imported.
 */
export function parseItems(
  text: string,
  spec: Spec,
  zoneOffset: number,
): { data: Dataset; skipped: ImportReport["skipped"] } {
  const data: Dataset = { alerts: [], zdm: [], activities: [], activityCategories: [] };
  const skipped: ImportReport["skipped"] = [];
  const items: { at: string; value: unknown }[] = [];
  if (text.trimStart().startsWith("[")) {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) throw new Error("a JSON file must hold an array of items");
    for (const [i, value] of parsed.entries()) items.push({ at: `item ${i}`, value });
  } else {
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        items.push({ at: `line ${i + 1}`, value: JSON.parse(line) });
      } catch {
        skipped.push({ at: `line ${i + 1}`, reason: "not JSON" });
      }
    });
  }
  const cates = new Set<string>();
  for (const { at, value } of items) {
    try {
      const item = object(value);
      if (item.type === "smzdm") data.zdm.push(zdmItem(item));
      else if ("h5" in item) {
        const activity = activityItem(item);
        data.activities.push(activity);
        cates.add(activity.cate);
      } else data.alerts.push(alertItem(item, spec, zoneOffset));
    } catch (err) {
      skipped.push({ at, reason: (err as Error).message });
    }
  }
  data.activityCategories = [...cates].map((id) => ({ id, name: id }));
  return { data, skipped };
}

/** Imports a file into the database. Generated data is a placeholder: it is removed first. */
export async function importFile(
  db: Database,
  path: string,
  spec: Spec,
  zoneOffset: number,
): Promise<ImportReport> {
  const { data, skipped } = parseItems(await readFile(path, "utf8"), spec, zoneOffset);
  const replacedGenerated = readInfo(db).source === "generated";
  db.transaction(() => {
    if (replacedGenerated) clearData(db);
    writeDataset(db, data);
    writeInfo(db, { source: "imported" });
  })();
  settleAfterBulkWrite(db);
  return {
    alerts: data.alerts.length,
    zdm: data.zdm.length,
    activities: data.activities.length,
    skipped,
    replacedGenerated,
  };
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
