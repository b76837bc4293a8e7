/**
 * The planted proxy's tally is what every planted test leans on ("the bug took effect"), so it
 * must not count a difference where there is none: mutations that change nothing a client sees
 * (an answer re-serialized, a query copied or given a parameter the server ignores, an upstream
 * address of another client) count no differing answer; a real change counts where it shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBundledServer, type Target } from "../runner/target.ts";
import { type Mutation, startProxy } from "./proxy.ts";
import { PLANTED } from "./variants.ts";

let upstream: Target;
beforeAll(async () => {
  upstream = await startBundledServer();
});
afterAll(async () => {
  await upstream?.close();
});

/** One request of every kind of answer: JSON lists, the manifest, RSS, a legacy file, a 400, a 401. */
const PATHS = [
  "/api/v1/meta",
  "/api/v1/rank?act=yixiaoshi&limit=5",
  "/api/v1/feed?limit=5",
  "/api/v1/search?q=%E4%BA%AC%E4%B8%9C&limit=5",
  "/api/v1/shenghuo?with_cates=1",
  "/rss.php",
  "/plus/json/rank/yixiaoshi.json",
  "/api/v1/rank",
  "/api/v1/my/follow?uid=999999998",
];

async function tallyOf(mutation: Mutation, subnet: number, paths = PATHS) {
  const proxy = await startProxy(upstream.baseUrl, mutation, subnet);
  try {
    for (const path of paths) await (await fetch(proxy.url + path)).arrayBuffer();
    return await proxy.tally();
  } finally {
    await proxy.close();
  }
}

const bug = (name: string) => {
  const found = PLANTED.find((b) => b.name === name);
  if (!found) throw new Error(`no planted bug ${name}`);
  return found.mutation;
};

describe("the planted proxy's tally", () => {
  it.each([
    ["no mutation", {}],
    [
      "every JSON answer parsed and written again",
      {
        response: (_req, res) =>
          res.headers["content-type"]?.includes("json")
            ? { ...res, body: JSON.stringify(JSON.parse(res.body)) }
            : res,
      },
    ],
    ["every query copied", { request: (req) => ({ ...req, query: new URLSearchParams(req.query) }) }],
    [
      "a parameter the server ignores added",
      {
        request: (req) => {
          const query = new URLSearchParams(req.query);
          query.set("planted_noop", "1");
          return { ...req, query };
        },
      },
    ],
    ["another upstream address, under the limit", { upstreamAddress: (_c, n) => `127.199.0.${n + 1}` }],
  ] as [string, Mutation][])("%s: no answer differs", async (_label, mutation) => {
    const tally = await tallyOf(mutation, 150);
    expect(tally).toEqual({ exchanges: PATHS.length, differing: 0, paths: [] });
  });

  it("a changed answer differs, on its path only", async () => {
    const tally = await tallyOf(bug("rank-content-missing-at-large-limit"), 151, [
      ...PATHS,
      "/api/v1/rank?act=yixiaoshi&limit=100",
    ]);
    expect(tally.differing).toBe(1);
    expect(tally.paths).toEqual(["/api/v1/rank"]);
  });

  it("a request rewritten on its way differs when its answer does (compared with a shadow)", async () => {
    const tally = await tallyOf(bug("limit-clamped-silently"), 152, [
      ...PATHS,
      "/api/v1/rank?act=yixiaoshi&limit=0",
    ]);
    expect(tally).toEqual({ exchanges: PATHS.length + 1, differing: 1, paths: ["/api/v1/rank"] });
  });

  it("a limit not enforced differs from the 61st request of one client on", async () => {
    // Activities, not the manifest: its generated_at may tick between an answer and its shadow.
    const tally = await tallyOf(bug("no-rate-limit"), 153, Array(62).fill("/api/v1/shenghuo?pageSize=1"));
    expect(tally).toEqual({ exchanges: 62, differing: 2, paths: ["/api/v1/shenghuo"] });
  });

  it("a faulty limiter differs where a correct one decides otherwise", async () => {
    // Skipping /rss.php: the correct limiter counts it, so every later answer states another count.
    const tally = await tallyOf(bug("rss-not-limited"), 154, ["/api/v1/meta", "/rss.php", "/api/v1/meta"]);
    expect(tally).toEqual({ exchanges: 3, differing: 2, paths: ["/api/v1/meta", "/rss.php"] });
  });

  it("a proxy compressing for a client that offered gzip is correct; one that drops Vary is not", async () => {
    // Node's fetch offers gzip: compressing its answers is what a correct proxy does too.
    expect((await tallyOf(bug("compressed-unasked"), 155)).differing).toBe(0);
    expect((await tallyOf(bug("compressed-without-vary"), 156)).differing).toBeGreaterThan(0);
  });
});
