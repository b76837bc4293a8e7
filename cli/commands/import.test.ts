import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { AlertRow } from "../../reference-server/data/records.ts";
import { connect } from "../../reference-server/db/open.ts";
import { type AlertFilter, Store } from "../../reference-server/db/store.ts";
import { importAlerts } from "../../reference-server/import.ts";
import {
  bodyOf,
  injectTransport,
  NOW_MS,
  specViolations,
  testApp,
} from "../../reference-server/test/helpers.ts";
import { containsWord } from "../../src/rules/words.ts";
import { UsageError } from "../args.ts";
import { run } from "./import.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const t = NOW_MS / 1000 - 1200;

describe("dealkit import", () => {
  it("loads NDJSON of alerts, zdm items and activities, normalising to the spec's rules", async () => {
    const file = join(dir, "items.ndjson");
    const lines = [
      {
        id: 1,
        title: "京东 PLUS 领红包",
        content: "JD 红包 <可叠加> & 秒到",
        shijianchuo: t,
        cateid: "zuankeba",
        tags: ["京东"],
        url: "https://new.xianbao.fun/zuankeba/1.html",
        price: 9,
      },
      {
        id: 2,
        title: "拼多多 小米 手机 1799元",
        content: "百亿补贴",
        shijianchuo: t + 60,
        cateid: 10,
        price: "1799",
        url: "/weibo/2.html",
        comments: 4,
      },
      { id: 3, title: "未知分类", shijianchuo: t, cateid: "999", url: "/x/3.html" },
      {
        id: 129933811,
        type: "smzdm",
        title: "苏泊尔 电饭煲",
        price: 199,
        mall_name: "京东",
        brand: "苏泊尔",
        category_name: "厨房电器",
        pic: "https://img.example/1.jpg",
        posttime: t,
        url: "https://new.xianbao.fun/zdm/1.html",
      },
      {
        id: 5021,
        name: "美团外卖 神券",
        desc: "每天10点",
        cate: "waimai",
        h5: "https://click.meituan.com/t",
        pic: "https://img.example/5021.png",
        start_time: "2026-11-01",
        end_time: null,
      },
      {
        id: 5022,
        name: "不安全链接",
        cate: "waimai",
        h5: "http://insecure.example/",
        pic: "https://img.example/5022.png",
        start_time: "2026-11-01",
      },
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\nnot json\n`);
    const dbPath = join(dir, "a.db");
    // Without skipInvalid the three bad records would refuse the whole file (see below).
    const report = await importAlerts(file, dbPath, { skipInvalid: true });
    expect(report).toMatchObject({ alerts: 2, zdm: 1, activities: 1, rejected: 3, loaded: true });
    expect(report.rejects.map((s) => s.at)).toEqual(["line 3", "line 6", "line 7"]);
    expect(report.demo?.uid).toBe(10001);

    const built = await testApp({ dbPath });
    const send = injectTransport(built.app);
    for (const url of [
      "/api/v1/feed",
      "/api/v1/feed?type=zdm",
      "/api/v1/shenghuo?with_cates=1",
      "/api/v1/search?q=jd",
      "/rss.php?tag=%E4%BA%AC%E4%B8%9C",
    ]) {
      const reply = await send(url);
      expect(reply.status, url).toBe(200);
      expect(specViolations(built.spec, url, reply), url).toEqual([]);
    }
    const feed = bodyOf(await send("/api/v1/feed")) as { data: Record<string, unknown>[] };
    expect(feed.data.map((a) => [a.id, a.price, a.url])).toEqual([
      [2, 1799, "https://new.xianbao.fun/weibo/2.html"],
      // zuankeba is unpriced: the price of the file is dropped.
      [1, undefined, "https://new.xianbao.fun/zuankeba/1.html"],
    ]);
    const rss = (await send("/rss.php?tag=%E4%BA%AC%E4%B8%9C")).text;
    expect(rss).toContain("JD 红包 &lt;可叠加&gt; &amp; 秒到");
    await built.close();
  });

  it("loads the real site's JSON array files, replacing an item with the same id", async () => {
    const dbPath = join(dir, "b.db");
    const file = join(dir, "rank.json");
    const item = {
      id: 9,
      title: "旧标题",
      shijianchuo: t,
      cateid: "23",
      url: "/douban/9.html",
      datetime: "2026-11-25",
      shorttime: "10:10",
    };
    writeFileSync(file, JSON.stringify([item]));
    await importAlerts(file, dbPath);
    writeFileSync(file, JSON.stringify([{ ...item, title: "新标题" }]));
    await importAlerts(file, dbPath);
    const built = await testApp({ dbPath });
    const send = injectTransport(built.app);
    const titles = async (q: string) =>
      (
        bodyOf(await send(`/api/v1/search?q=${encodeURIComponent(q)}`)) as { data: { title: string }[] }
      ).data.map((a) => a.title);
    expect(await titles("新标题")).toEqual(["新标题"]);
    // The replaced text is gone from the search index too.
    expect(await titles("旧标题")).toEqual([]);
    await built.close();
  });

  it("counts an id the file repeats once, as its last item, in every total and page", async () => {
    const dbPath = join(dir, "repeat.db");
    const file = join(dir, "repeat.ndjson");
    const words = ["京东", "红包", "PLUS", "小米", "秒到"];
    // 2 100 items, in time order (no renumbering hides anything), over two write batches of
    // 2 000: ids 1-600 come again from item 1 500 on, with other words, prices and categories;
    // ids 1-5 a third time, unchanged.
    const item = (i: number) => ({
      id: (i % 1500) + 1,
      title: `${words[i % 5]} ${words[(i * 3) % 5]} ${i % 7}`,
      content: i % 4 ? words[(i * 2) % 5] : "",
      shijianchuo: t - 3000 + i,
      cateid: i % 3 ? "10" : "23",
      price: i % 5 ? (i % 97) + 0.5 : null,
      url: `/weibo/${i}.html`,
    });
    const items = Array.from({ length: 2100 }, (_, i) => item(i));
    items.push(...items.slice(1500, 1505));
    writeFileSync(file, ndjson(...items));
    const report = await importAlerts(file, dbPath);
    expect(report).toMatchObject({ alerts: 2105, loaded: true });

    const db = connect(dbPath);
    try {
      const stored = db.prepare<[], AlertRow>("SELECT * FROM alerts ORDER BY seq DESC").all();
      expect(stored.length).toBe(1500);
      // The last item of each id is the one stored.
      expect(stored.find((a) => a.id === 3)).toMatchObject({
        title: item(1502).title,
        shijianchuo: t - 3000 + 1502,
      });
      const store = new Store(db);
      const filters: AlertFilter[] = [
        { anyWords: ["京东"] },
        { anyWords: ["小米", "红包", "秒到"] },
        { anyWords: ["PLUS"], noWords: ["京东", "秒到"] },
        { noWords: ["红包"] },
        { cateid: "10" },
        { cateid: "23", anyWords: ["京东"] },
        { minPrice: 10, maxPrice: 60 },
        { minPrice: 30.5 },
        { minPrice: 5, maxPrice: 80, anyWords: ["京东", "小米"] },
        { maxPrice: 40, noWords: ["PLUS"] },
        {},
      ];
      const has = (a: AlertRow, w: string) => containsWord(a.title, w) || containsWord(a.content, w);
      for (const f of filters) {
        const expected = stored
          .filter(
            (a) =>
              (!f.anyWords?.length || f.anyWords.some((w) => has(a, w))) &&
              !f.noWords?.some((w) => has(a, w)) &&
              (f.cateid === undefined || a.cateid === f.cateid) &&
              (f.minPrice === undefined || (a.price !== null && a.price >= f.minPrice)) &&
              (f.maxPrice === undefined || (a.price !== null && a.price <= f.maxPrice)),
          )
          .map((a) => a.id);
        expect(store.countAlerts(f), JSON.stringify(f)).toBe(expected.length);
        for (const offset of [0, 37])
          expect(
            store.alerts(f, 50, offset, expected.length).map((a) => a.id),
            JSON.stringify(f),
          ).toEqual(expected.slice(offset, offset + 50));
      }
    } finally {
      db.close();
    }
    // And through the API: the total a client reads.
    const built = await testApp({ dbPath });
    const reply = bodyOf(await injectTransport(built.app)("/api/v1/search?q=PLUS")) as {
      meta: { total: number };
    };
    const plus = (items as { id: number; title: string; content: string }[]).reduce(
      (last, a) => last.set(a.id, containsWord(a.title, "PLUS") || containsWord(a.content, "PLUS")),
      new Map<number, boolean>(),
    );
    expect(reply.meta.total).toBe([...plus.values()].filter(Boolean).length);
    await built.close();
  });
});

const alert = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: `标题 ${id}`,
  shijianchuo: t,
  cateid: "10",
  url: `/weibo/${id}.html`,
  ...extra,
});
const ndjson = (...items: unknown[]) =>
  `${items.map((i) => (typeof i === "string" ? i : JSON.stringify(i))).join("\n")}\n`;

/** What a database holds, to compare before and after a refused import. */
function contents(dbPath: string) {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      alerts: count("alerts"),
      zdm: count("zdm_items"),
      activities: count("activities"),
      accounts: count("accounts"),
      terms: count("term_docs"),
      meta: db.prepare("SELECT key, value FROM meta ORDER BY key").all(),
      titles: db.prepare("SELECT title FROM alerts ORDER BY id LIMIT 50").all(),
    };
  } finally {
    db.close();
  }
}

/** `dealkit import ARGS` in process: its exit code and what it printed. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  try {
    const code = await run(args);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    vi.restoreAllMocks();
  }
}

/** The real command in its own process: what a script sees. */
function spawnCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["bin/dealkit.js", "import", ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("dealkit import: all or nothing", () => {
  afterEach(() => vi.restoreAllMocks());

  it("refuses a file with one bad line: exit 1, the rejected lines listed, the database unchanged", async () => {
    const dbPath = join(dir, "refuse.db");
    const good = join(dir, "good.ndjson");
    writeFileSync(good, ndjson(alert(1), alert(2)));
    expect((await cli(good, "--db", dbPath)).code).toBe(0);
    const before = contents(dbPath);
    expect(before.alerts).toBe(2);

    const bad = join(dir, "bad.ndjson");
    writeFileSync(
      bad,
      ndjson(alert(1, { title: "改了" }), alert(3), "{not json", alert(4), alert(5, { cateid: "999" })),
    );
    const result = await cli(bad, "--db", dbPath);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([
      `dealkit import: ${bad}: 2 of 5 records rejected; nothing loaded, the database is unchanged`,
      "  line 3: not JSON: Expected property name or '}' (column 2)",
      "  line 5: cateid 999 is not a category of the spec",
      "Fix them, or run again with --skip-invalid to load the 3 valid records.",
    ]);
    expect(contents(dbPath)).toEqual(before);
  });

  it("leaves generated data in place when it refuses, and creates no database file", async () => {
    const dbPath = join(dir, "generated.db");
    const built = await testApp({ dbPath, size: 300 });
    await built.close();
    const before = contents(dbPath);
    expect(before.alerts).toBeGreaterThan(0);
    expect(before.meta).toContainEqual({ key: "source", value: "generated" });
    const bad = join(dir, "bad2.ndjson");
    writeFileSync(bad, ndjson(alert(1), "[1,"));
    expect((await cli(bad, "--db", dbPath)).code).toBe(1);
    // The generated data was cleared inside the transaction; the rollback brought it back.
    expect(contents(dbPath)).toEqual(before);

    const fresh = join(dir, "never-created.db");
    expect((await cli(bad, "--db", fresh)).code).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });

  it("--skip-invalid loads the valid records and lists the first five rejected with their line", async () => {
    const dbPath = join(dir, "skip.db");
    const file = join(dir, "skip.ndjson");
    const bad = Array.from({ length: 7 }, (_, i) => `bad ${i}`);
    writeFileSync(file, ndjson(alert(1), ...bad, alert(2), { id: 3 }, alert(4)));
    const result = await cli(file, "--db", dbPath, "--skip-invalid");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("imported 3 alerts, 0 zdm items, 0 activities");
    expect(result.stderr.split("\n").slice(0, 8)).toEqual([
      "dealkit import: skipped 8 rejected records (--skip-invalid)",
      "  line 2: not JSON: Unexpected token 'b'",
      "  line 3: not JSON: Unexpected token 'b'",
      "  line 4: not JSON: Unexpected token 'b'",
      "  line 5: not JSON: Unexpected token 'b'",
      "  line 6: not JSON: Unexpected token 'b'",
      "  ... and 3 more",
      expect.stringMatching(/^demo account created: uid 10001/),
    ]);
    expect(contents(dbPath).titles).toEqual([{ title: "标题 1" }, { title: "标题 2" }, { title: "标题 4" }]);

    const report = await importAlerts(file, dbPath, { skipInvalid: true });
    expect(report.rejected).toBe(8);
    expect(report.rejects.at(-1)).toEqual({ at: "line 10", line: 10, reason: "cateid is required" });
  });

  it("reports a file with no valid item, even with --skip-invalid, and loads nothing", async () => {
    const dbPath = join(dir, "none.db");
    const all = join(dir, "all-bad.ndjson");
    writeFileSync(all, ndjson("x", "y"));
    const result = await cli(all, "--db", dbPath, "--skip-invalid");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("2 of 2 records rejected; nothing loaded");
    const empty = join(dir, "empty.json");
    writeFileSync(empty, "[]\n");
    expect(await cli(empty, "--db", dbPath)).toMatchObject({
      code: 1,
      stderr: `dealkit import: ${empty} holds no items; nothing loaded`,
    });
    expect(existsSync(dbPath)).toBe(false);
  });

  it("accepts a UTF-8 byte order mark (and CRLF lines) in NDJSON and JSON files", async () => {
    const dbPath = join(dir, "bom.db");
    const lines = join(dir, "bom.ndjson");
    writeFileSync(lines, `\ufeff${JSON.stringify(alert(1))}\r\n${JSON.stringify(alert(2))}\r\n`);
    expect(await cli(lines, "--db", dbPath)).toMatchObject({
      code: 0,
      stdout: "imported 2 alerts, 0 zdm items, 0 activities",
    });
    const array = join(dir, "bom.json");
    writeFileSync(array, `\ufeff${JSON.stringify([alert(3)], null, 2)}`);
    expect(await cli(array, "--db", dbPath)).toMatchObject({
      code: 0,
      stdout: "imported 1 alerts, 0 zdm items, 0 activities",
    });
    expect(contents(dbPath).alerts).toBe(3);
  });

  it("refuses a record over --max-record-bytes by its size, naming its line", async () => {
    const dbPath = join(dir, "size.db");
    const file = join(dir, "size.ndjson");
    writeFileSync(file, ndjson(alert(1), alert(2, { content: "长".repeat(400) }), alert(3)));
    const refused = await cli(file, "--db", dbPath, "--max-record-bytes", "1000");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "  line 2: the record is 1301 bytes, over the limit of 1000 bytes (--max-record-bytes)",
    );
    expect(existsSync(dbPath)).toBe(false);
    expect(await cli(file, "--db", dbPath, "--max-record-bytes", "1000", "--skip-invalid")).toMatchObject({
      code: 0,
      stdout: "imported 2 alerts, 0 zdm items, 0 activities",
    });
    expect(await cli(file, "--db", dbPath)).toMatchObject({ code: 0 });
    // A bad option is a usage error: the CLI prints it with the usage and exits 2.
    await expect(run([file, "--max-record-bytes", "1k"])).rejects.toThrow(
      '--max-record-bytes must be an integer from 16 to 8388608, got "1k"',
    );
    await expect(run([file, "--max-record-bytes", "1k"])).rejects.toBeInstanceOf(UsageError);
  });
});

describe("dealkit import: unreadable input, in its own process", () => {
  it("reports a truncated JSON array in one line, without the file's content or a stack: exit 2", async () => {
    const dbPath = join(dir, "truncated.db");
    const file = join(dir, "push.json");
    // About 30 KB, like the real site's push.json, cut in the middle of an item.
    const items = Array.from({ length: 120 }, (_, i) =>
      alert(i + 1, { content: `MARKER-${i} ${"内容".repeat(40)}` }),
    );
    const text = JSON.stringify(items, null, 1);
    writeFileSync(file, text.slice(0, Math.floor(text.length * 0.7)));
    const result = await spawnCli(file, "--db", dbPath);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^dealkit import: ${file.replace(/[.\\]/g, "\\$&")}: line \\d+: the JSON array is truncated: the file ends inside item \\d+ \\(begun on line \\d+\\); expected the rest of it and a closing '\\]'; nothing loaded\n$`,
      ),
    );
    expect(result.stderr).not.toContain("MARKER");
    expect(existsSync(dbPath)).toBe(false);
  });

  it("reports a missing file, a directory and an unusable database in one line each: exit 2", async () => {
    const dbPath = join(dir, "missing.db");
    const missing = await spawnCli(join(dir, "nope.json"), "--db", dbPath);
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: `dealkit import: ${join(dir, "nope.json")}: cannot read the file: no such file; nothing loaded\n`,
    });
    const directory = await cli(dir, "--db", dbPath);
    expect(directory).toMatchObject({
      code: 2,
      stderr: `dealkit import: ${dir}: cannot read the file: it is a directory; nothing loaded`,
    });
    const notDb = join(dir, "not-a-database.db");
    writeFileSync(notDb, "this is no SQLite file, and it is long enough to have a header".repeat(20));
    const file = join(dir, "one.ndjson");
    writeFileSync(file, ndjson(alert(1)));
    expect(await cli(file, "--db", notDb)).toMatchObject({
      code: 2,
      stderr: `dealkit import: cannot open the database ${notDb}: file is not a database; nothing loaded`,
    });
    expect(existsSync(dbPath)).toBe(false);
  });
});
