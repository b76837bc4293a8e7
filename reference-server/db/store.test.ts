import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containsWord } from "../../src/rules/words.ts";
import type { AlertRow } from "../data/records.ts";
import { generatedDb } from "../test/helpers.ts";
import { connect } from "./open.ts";
import { type AlertFilter, BODY_CACHE_SIZE, OTHER_COMMITS_CHECK_MS, Store } from "./store.ts";
import { writeDataset } from "./write.ts";

const NOW = Date.UTC(2026, 10, 25, 2, 30) / 1000;

/** The brute-force meaning of a filter, straight from the spec's words (containsWord). */
function matches(a: AlertRow, f: AlertFilter): boolean {
  const text = (w: string) => containsWord(a.title, w) || containsWord(a.content, w);
  if (f.anyWords?.length && !f.anyWords.some(text)) return false;
  if (f.noWords?.some(text)) return false;
  if (f.minPrice !== undefined && (a.price === null || a.price < f.minPrice)) return false;
  if (f.maxPrice !== undefined && (a.price === null || a.price > f.maxPrice)) return false;
  if (f.cateid !== undefined && a.cateid !== f.cateid) return false;
  if (f.cateids !== undefined && !f.cateids.includes(a.cateid)) return false;
  if (f.tag !== undefined && !(JSON.parse(a.tags) as string[]).includes(f.tag)) return false;
  return true;
}

/** Every query shape of the store (token sets, checked candidates, table) answers exactly the brute force. */
describe("store queries", () => {
  let store: Store;
  let all: AlertRow[];
  let close: () => void;

  beforeAll(async () => {
    const db = await generatedDb(600, 11);
    store = new Store(db);
    all = db.prepare<[], AlertRow>("SELECT * FROM alerts ORDER BY seq DESC").all();
    close = () => db.close();
  });
  afterAll(() => close());

  it("filters, counts and pages newest first like the brute force", () => {
    const word = fc.constantFrom<string>(
      "京东",
      "红包",
      "立减金",
      "话费",
      "银行",
      "京",
      "包",
      "plus",
      "PLUS",
      "元",
      "到手",
      "不存在的词",
    );
    const filter = fc.record(
      {
        anyWords: fc.array(word, { minLength: 1, maxLength: 3 }),
        noWords: fc.array(word, { minLength: 1, maxLength: 2 }),
        minPrice: fc.constantFrom<number>(0, 1, 10, 100),
        maxPrice: fc.constantFrom<number>(1, 50, 500),
        cateid: fc.constantFrom<string>("10", "16", "23", "30"),
        cateids: fc.constantFrom<string[]>(["10", "30"], ["16"]),
        tag: fc.constantFrom<string>("京东", "红包"),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(filter, fc.integer({ min: 0, max: 3 }), (f, page) => {
        const expected = all.filter((a) => matches(a, f));
        expect(store.countAlerts(f)).toBe(expected.length);
        const got = store.alerts(f, 7, page * 7).map((a) => a.id);
        expect(got).toEqual(expected.slice(page * 7, page * 7 + 7).map((a) => a.id));
        // Given the total (as the route does), a price range may be read through the price index.
        const withTotal = store.alerts(f, 7, page * 7, expected.length).map((a) => a.id);
        expect(withTotal).toEqual(got);
      }),
      { seed: 7, numRuns: 250 },
    );
  });

  it("pages a price range alike through the price index and walking newest first", () => {
    for (const [minPrice, maxPrice] of [
      [0, 1],
      [9.9, 9.9],
      [10, 20],
      [100, 105],
      [0, 5000],
    ] as const) {
      const f = { minPrice, maxPrice };
      const expected = all.filter((a) => matches(a, f)).map((a) => a.id);
      for (const offset of [0, 7]) {
        const want = expected.slice(offset, offset + 7);
        // A total of 0 makes the index the cheaper read, a huge one the walk.
        expect(store.alerts(f, 7, offset, 0).map((a) => a.id)).toEqual(want);
        expect(store.alerts(f, 7, offset, 1e9).map((a) => a.id)).toEqual(want);
      }
    }
  });

  it("counts and pages words from the token sets, exactly, through replacements", () => {
    const words = ["京东", "红包", "话费", "银行", "到手", "pl", "PL", "立减金", "京", "无词"];
    const check = (rows: AlertRow[]) => {
      for (const w of words) {
        const expected = rows.filter((a) => matches(a, { anyWords: [w] })).length;
        expect(store.countAlerts({ anyWords: [w] }), w).toBe(expected);
        const newest = rows.filter((a) => matches(a, { anyWords: [w] })).slice(0, 9);
        expect(
          store.alerts({ anyWords: [w] }, 9).map((a) => a.id),
          w,
        ).toEqual(newest.map((a) => a.id));
      }
    };
    check(all);
    // A re-imported alert whose text changed: its old tokens leave the counts, its new ones join,
    // and its new doc number (the highest) does not make it the newest.
    const changed = { ...(all.find((a) => a.title.includes("京东")) as AlertRow) };
    changed.title = "银行话费到手";
    changed.content = "PLUS";
    writeDataset(store.db, { alerts: [changed] });
    check(store.db.prepare<[], AlertRow>("SELECT * FROM alerts ORDER BY seq DESC").all());
  });

  it("ranks by comments, then newest, inside the window, for short and long windows", () => {
    for (const hours of [1, 6, 24, 360]) {
      const from = NOW - hours * 3600;
      const expected = all
        .filter((a) => a.shijianchuo >= from && a.shijianchuo <= NOW)
        .sort((a, b) => b.comments - a.comments || b.shijianchuo - a.shijianchuo || b.id - a.id)
        .slice(0, 30)
        .map((a) => a.id);
      expect(
        store.rank(from, NOW, 30).map((a) => a.id),
        `${hours} h`,
      ).toEqual(expected);
    }
  });

  it("memoizes answers until any write, on this connection or another", () => {
    let builds = 0;
    const build = () => `${++builds}`;
    expect(String(store.memo("k", build))).toBe("1");
    expect(String(store.memo("k", build))).toBe("1");
    expect(String(store.memo("other", build))).toBe("2");
    // The in-process freshness shift writes on the store's own connection.
    store.db.prepare("UPDATE alerts SET comments = comments").run();
    expect(String(store.memo("k", build))).toBe("3");
    expect(String(store.memo("k", build))).toBe("3");
  });

  it("keeps at most BODY_CACHE_SIZE answers, the one kept longest making room for a new one", () => {
    let builds = 0;
    const build = () => `${++builds}`;
    for (let i = 0; i <= BODY_CACHE_SIZE; i++) store.memo(`bounded ${i}`, build);
    expect(builds).toBe(BODY_CACHE_SIZE + 1);
    // The second and the last are still kept; only the first was let go (and is built again).
    expect(String(store.memo("bounded 1", build))).toBe("2");
    expect(String(store.memo(`bounded ${BODY_CACHE_SIZE}`, build))).toBe(String(BODY_CACHE_SIZE + 1));
    expect(builds).toBe(BODY_CACHE_SIZE + 1);
    expect(String(store.memo("bounded 0", build))).toBe(String(BODY_CACHE_SIZE + 2));
  });

  it("second build: keeps an answer from its second build, until any write", () => {
    let builds = 0;
    const build = () => `${++builds}`;
    const memo = (key: string) => String(store.memo(key, build, "second build"));
    // Built once: not kept (most search answers are never asked for again).
    expect(memo("s")).toBe("1");
    expect(memo("s")).toBe("2");
    expect(memo("s")).toBe("2");
    expect(memo("other s")).toBe("3");
    expect(memo("s")).toBe("2");
    // A write is a new data state, in which an answer is again kept from its second build.
    store.db.prepare("UPDATE alerts SET comments = comments").run();
    expect(memo("s")).toBe("4");
    expect(memo("s")).toBe("5");
    expect(memo("s")).toBe("5");
  });

  it("second build: keeps no answer built once, however many come (a stream of new searches)", () => {
    let builds = 0;
    const build = () => `${++builds}`;
    const memo = (key: string) => String(store.memo(key, build, "second build"));
    const count = BODY_CACHE_SIZE / 2;
    for (let i = 0; i < count; i++) memo(`once ${i}`);
    // None was kept: each is built again when asked again, and only then kept.
    for (let i = 0; i < count; i++) expect(memo(`once ${i}`)).toBe(String(count + i + 1));
    for (let i = 0; i < count; i++) expect(memo(`once ${i}`)).toBe(String(count + i + 1));
  });
});

/** A store on a file, on an injected clock, with a second connection to the file (another process's). */
function withTwoConnections(
  test: (t: {
    db: BetterSqlite3.Database;
    other: BetterSqlite3.Database;
    store: Store;
    tick: (ms: number) => void;
  }) => void,
): void {
  const dir = mkdtempSync(join(tmpdir(), "dealkit-store-"));
  const path = join(dir, "data.db");
  const db = connect(path);
  const other = new BetterSqlite3(path);
  try {
    let clockMs = 1000;
    const store = new Store(db, () => clockMs);
    const tick = (ms: number) => {
      clockMs += ms;
    };
    test({ db, other, store, tick });
  } finally {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("memo and other processes", () => {
  it("sees another connection's commit once the check interval has passed", () => {
    withTwoConnections(({ db, other, store, tick }) => {
      let builds = 0;
      const build = () => `${++builds}`;
      expect(String(store.memo("k", build))).toBe("1");
      const stamp = store.changeStamp();
      other.prepare("INSERT INTO meta (key, value) VALUES ('touched', 'yes')").run();
      // Within the interval the other process's commit is not looked for (the pragma costs more
      // than a cached answer): the data state stays the same string.
      tick(OTHER_COMMITS_CHECK_MS - 1);
      expect(store.changeStamp()).toBe(stamp);
      expect(String(store.memo("k", build))).toBe("1");
      tick(1);
      expect(String(store.memo("k", build))).toBe("2");
      expect(String(store.memo("k", build))).toBe("2");
      // This connection's own writes are seen at once, whatever the clock.
      db.prepare("UPDATE meta SET value = 'again' WHERE key = 'touched'").run();
      expect(String(store.memo("k", build))).toBe("3");
    });
  });

  it("serving stamp: an announced write at once, any other write once the check interval has passed", () => {
    withTwoConnections(({ db, other, store, tick }) => {
      const first = store.servingStamp();
      const write = (value: string) =>
        db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('touched', ?)").run(value);
      // Written without announcing: the exact stamp moves, the serving one waits for the interval.
      write("a");
      expect(store.changeStamp()).not.toBe(first);
      tick(OTHER_COMMITS_CHECK_MS - 1);
      expect(store.servingStamp()).toBe(first);
      tick(1);
      const second = store.servingStamp();
      expect(second).toBe(store.changeStamp());
      expect(second).not.toBe(first);
      // Announced: the next read sees it, with the clock standing still.
      write("b");
      store.announceWrite();
      const third = store.servingStamp();
      expect(third).not.toBe(second);
      expect(store.servingStamp()).toBe(third);
      // Another process's commit: within the interval as well; a clock set back reads it at once.
      other.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('touched', 'c')").run();
      expect(store.servingStamp()).toBe(third);
      tick(-1);
      expect(store.servingStamp()).not.toBe(third);
    });
  });
});
