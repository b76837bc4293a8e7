import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importAlerts } from "../import.ts";
import { bodyOf, injectTransport, NOW_MS, specViolations, testApp } from "../test/helpers.ts";

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
    const report = await importAlerts(file, dbPath);
    expect(report).toMatchObject({ alerts: 2, zdm: 1, activities: 1 });
    expect(report.skipped.map((s) => s.at)).toEqual(["line 7", "line 3", "line 6"]);
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
});
