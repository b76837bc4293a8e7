import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import type { Category } from "../../src/spec/types.ts";
import { type Account, newKey, saveAccount } from "../auth.ts";
import { generate } from "../data/generate.ts";
import { shiftIfStale } from "./freshness.ts";
import { readInfo, writeInfo } from "./meta.ts";
import { migrate } from "./schema.ts";
import { clearData, writeDataset } from "./write.ts";

export interface OpenOptions {
  dbPath: string;
  size: number;
  seed: number;
  nowSeconds: number;
  categories: Category[];
  zoneOffset: number;
  /** The demo account's key when it is created now; random when not given. */
  demoKey?: string;
}

export interface OpenedDatabase {
  db: Database;
  /** What happened to the data on opening, for the start-up log. */
  data: "generated" | "regenerated" | "shifted" | "kept";
  /** Set only when the demo account was created by this call: its key is shown once, then only its hash exists. */
  demo?: { uid: number; key: string };
}

/** The demo account: follows common words, pushes priced deals; its key is created with the database. */
export const DEMO_ACCOUNT: Account = {
  uid: 10001,
  followWords: ["京东", "立减金", "红包"],
  pushCates: ["10", "30"],
  pushWords: ["历史低价", "包邮", "秒杀"],
};

/**
 * Opens (creating and filling when needed) the server's database. Generated data is regenerated
 * when asked for a different seed or size, and shifted forward when it has aged; imported data
 * is kept as it is.
 */
export function openDatabase(o: OpenOptions): OpenedDatabase {
  const db = connect(o.dbPath);
  const info = readInfo(db);
  let data: OpenedDatabase["data"] = "kept";
  if (
    info.source === undefined ||
    (info.source === "generated" && (info.seed !== o.seed || info.size !== o.size))
  ) {
    data = info.source === undefined ? "generated" : "regenerated";
    const dataset = generate({ ...o, nowSeconds: o.nowSeconds });
    db.transaction(() => {
      clearData(db);
      writeDataset(db, dataset, true);
      writeInfo(db, { source: "generated", seed: o.seed, size: o.size, referenceTime: o.nowSeconds });
    })();
    db.exec("ANALYZE");
  } else if (shiftIfStale(db, o.nowSeconds, o.zoneOffset) > 0) {
    data = "shifted";
  }
  return { db, data, demo: ensureDemoAccount(db, o.demoKey) };
}

/** Opens or creates the database file and brings its schema up to date; writes no data. */
export function connect(dbPath: string): Database {
  if (dbPath !== ":memory:") mkdirSync(dirname(dbPath), { recursive: true });
  const db = new BetterSqlite3(dbPath);
  // WAL: readers never wait for the writer (a shift or an import while serving).
  if (dbPath !== ":memory:") db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  migrate(db);
  return db;
}

/** Creates the demo account if missing (or re-keys it when a key is given); returns the key only then. */
export function ensureDemoAccount(db: Database, demoKey: string | undefined): OpenedDatabase["demo"] {
  const exists = db.prepare("SELECT 1 FROM accounts WHERE uid = ?").get(DEMO_ACCOUNT.uid);
  if (exists && demoKey === undefined) return undefined;
  const key = demoKey ?? newKey();
  saveAccount(db, DEMO_ACCOUNT, key);
  return { uid: DEMO_ACCOUNT.uid, key };
}
