import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import type { Category } from "../../src/spec/types.ts";
import { type Account, newKey, saveAccount } from "../auth.ts";
import { generateStream } from "../data/generate.ts";
import { generateInWorker } from "../data/generate-worker.ts";
import { shiftIfStale } from "./freshness.ts";
import { readInfo, writeInfo } from "./meta.ts";
import { migrate, SCHEMA_VERSION } from "./schema.ts";
import { clearData, settleAfterBulkWrite, withIndexesBuiltAfter, writeDataset } from "./write.ts";

export interface OpenOptions {
  dbPath: string;
  size: number;
  seed: number;
  nowSeconds: number;
  categories: Category[];
  zoneOffset: number;
  /** The demo account's key when it is created now; random when not given. */
  demoKey?: string;
  /** Where images of generated databases are kept; default $DEALKIT_CACHE_DIR or <tmp>/dealkit. */
  cacheDir?: string;
}

export interface OpenedDatabase {
  db: Database;
  /** What happened to the data on opening, for the start-up log. */
  data: "generated" | "regenerated" | "shifted" | "kept";
  /** Set only when the demo account was created by this call: its key is shown once, then only its hash exists. */
  demo?: { uid: number; key: string };
}

/**
 * Larger generated databases are written straight into their file: an image is held in memory
 * whole (200 000 alerts make about 200 MB), and large sizes are for benchmarks that keep their file.
 */
const IMAGE_MAX_SIZE = 50_000;
const PAGE_SIZE = 16_384;
/** Files up to this size are read through a memory map (the 1M-alert bench database is ~1 GB). */
const MMAP_BYTES = 4 * 1024 ** 3;
/**
 * Generations from this size make their rows, and collect the gram lists of their texts, in a
 * worker thread (generate-worker.ts) while this one writes them: at 1M alerts each thread then
 * spends about 19 s of CPU instead of one spending 35 s. Below it, starting the thread (and tsx
 * in it) costs more than it saves.
 */
const WORKER_MIN_SIZE = 100_000;

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
  let db = connect(o.dbPath);
  const info = readInfo(db);
  const hasAccounts = db.prepare("SELECT 1 FROM accounts LIMIT 1").get() !== undefined;
  let data: OpenedDatabase["data"] = "kept";
  if (info.source === undefined && !hasAccounts && o.size <= IMAGE_MAX_SIZE) {
    // A new database: start from the image of a generated one (cached), moved to our clock.
    data = "generated";
    db.close();
    db = fromImage(o.dbPath, generatedImage(o));
    shiftIfStale(db, o.nowSeconds, o.zoneOffset, 1);
  } else if (info.source !== "imported" && (info.seed !== o.seed || info.size !== o.size)) {
    // Another seed or size (or an emptied database): generate in place, keeping the accounts.
    data = info.source === undefined ? "generated" : "regenerated";
    fillGenerated(db, o);
  } else if (shiftIfStale(db, o.nowSeconds, o.zoneOffset) !== 0) {
    data = "shifted";
  }
  return { db, data, demo: ensureDemoAccount(db, o.demoKey) };
}

function fillGenerated(db: Database, o: OpenOptions): void {
  const { alerts, rest, grams } =
    o.size >= WORKER_MIN_SIZE ? generateInWorker(o, true) : { ...generateStream(o), grams: undefined };
  // The bulk write through a rollback journal, not the WAL: the WAL would take every new page
  // (the whole database) and the checkpoint write it again; the journal keeps only the pages
  // the write changes, none on an empty file. Left as it was when another connection is open.
  const wal = db.pragma("journal_mode", { simple: true }) === "wal";
  if (wal) db.pragma("journal_mode = DELETE");
  try {
    db.transaction(() => {
      clearData(db);
      withIndexesBuiltAfter(db, "alerts", () => writeDataset(db, { alerts, alertGrams: grams }, true));
      writeDataset(db, rest(), true);
      writeInfo(db, { source: "generated", seed: o.seed, size: o.size, referenceTime: o.nowSeconds });
    })();
  } finally {
    if (wal) db.pragma("journal_mode = WAL");
  }
  settleAfterBulkWrite(db);
}

/**
 * The bytes of a freshly generated database. Generating and indexing 20 000 alerts costs a few
 * CPU seconds, and every in-process start (tests, the conformance default) needs one: the image
 * is cached on disk, keyed by everything that determines it (the generator's source, the
 * categories, seed, size, schema), and shifted to the caller's clock after loading.
 */
function generatedImage(o: OpenOptions): Buffer {
  // ".ts" in a checkout, ".js" in the built package: the modules that write the image.
  const ext = import.meta.url.slice(import.meta.url.lastIndexOf("."));
  const sources = [
    "../data/generate",
    "../data/vocab",
    "./write",
    "./grams",
    "./doc-index",
    "./gram-lists",
    "./doc-sets",
    "./doc-gaps",
    "./site-url",
    "../data/time",
  ].map((f) => readFileSync(new URL(f + ext, import.meta.url)));
  const key = createHash("sha256")
    .update(JSON.stringify([SCHEMA_VERSION, o.seed, o.size, o.zoneOffset, o.categories]))
    .update(Buffer.concat(sources))
    .digest("hex")
    .slice(0, 24);
  const dir = o.cacheDir ?? process.env.DEALKIT_CACHE_DIR ?? join(tmpdir(), "dealkit");
  const file = join(dir, `generated-${o.size}-${o.seed}-${key}.sqlite`);
  try {
    return readFileSync(file);
  } catch {
    // not cached yet
  }
  const scratch = connect(":memory:");
  fillGenerated(scratch, o);
  const image = scratch.serialize();
  scratch.close();
  try {
    mkdirSync(dir, { recursive: true });
    // Images of an older generator for this size and seed are dead weight.
    const stale = `generated-${o.size}-${o.seed}-`;
    for (const f of readdirSync(dir))
      if (f.startsWith(stale) && f.endsWith(".sqlite")) rmSync(join(dir, f), { force: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, image);
    renameSync(partial, file); // atomic: concurrent starts never read half an image
  } catch {
    // a read-only temp directory only costs the next start the generation
  }
  return image;
}

function fromImage(dbPath: string, image: Buffer): Database {
  if (dbPath === ":memory:") {
    const db = new BetterSqlite3(image);
    db.pragma("synchronous = NORMAL");
    return db;
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  writeFileSync(dbPath, image);
  return connect(dbPath);
}

/** Opens or creates the database file and brings its schema up to date; writes no data. */
export function connect(dbPath: string): Database {
  if (dbPath !== ":memory:") mkdirSync(dirname(dbPath), { recursive: true });
  const db = new BetterSqlite3(dbPath);
  // Only a new file takes it: rows (about 350 bytes an alert) pack tighter into larger pages,
  // and B-trees are shallower. Must come before the first table and before WAL.
  db.pragma(`page_size = ${PAGE_SIZE}`);
  // WAL: readers never wait for the writer (a shift or an import while serving).
  if (dbPath !== ":memory:") db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // Reads through a memory map skip a copy into SQLite's page cache per page: search walks
  // long doclists, so this is its main cost after the walk itself. Address space, not memory.
  if (dbPath !== ":memory:") db.pragma(`mmap_size = ${MMAP_BYTES}`);
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
