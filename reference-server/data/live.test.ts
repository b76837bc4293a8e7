import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Category } from "../../src/spec/types.ts";
import { refreshGramDocs } from "../db/write.ts";
import { injectTransport, NOW_MS, testApp } from "../test/helpers.ts";
import { SPAN_SECONDS } from "./generate.ts";
import { liveTick } from "./live.ts";
import { Prng } from "./prng.ts";

type Feed = { data: { id: number; shijianchuo: number; type?: string }[] };

const gramDocs = (db: Database) =>
  db.prepare<[], { term: string; docs: number }>("SELECT term, docs FROM gram_docs ORDER BY term").all();

/** Live data: new alerts and zdm items arrive, old ones leave, the search index stays exact. */
describe("live data", () => {
  let built: Awaited<ReturnType<typeof testApp>>;
  let categories: Category[];
  let now = NOW_MS / 1000;
  const tick = (i: number) =>
    liveTick(
      built.db,
      rng,
      { everyMs: 1000, seed: 7, nowSeconds: () => now, categories, zoneOffset: 8 * 3600 },
      i,
    );
  const rng = new Prng(7);

  beforeAll(async () => {
    built = await testApp({ size: 400 });
    categories = (await loadSpec()).categories.items;
  });
  afterAll(() => built.close());

  it("puts each new alert at the head of the whole-site feed, and a zdm item every third tick", async () => {
    const get = injectTransport(built.app);
    const feed = async (q: string) => JSON.parse((await get(`/api/v1/feed?${q}`)).text) as Feed;
    const zdmBefore = (await feed("type=zdm&limit=1")).data[0]?.id;
    for (let i = 1; i <= 3; i++) {
      now += 5;
      tick(i);
      const head = (await feed("limit=1")).data[0];
      expect(head?.shijianchuo).toBe(now);
    }
    const zdmAfter = (await feed("type=zdm&limit=1")).data[0];
    expect(zdmAfter?.id).toBeGreaterThan(zdmBefore ?? 0);
  });

  it("keeps gram_docs equal to what a full pass over the index counts, as alerts arrive and leave", () => {
    // Jump far enough that the oldest alerts fall out of the span on the next tick.
    const oldest = built.db.prepare("SELECT min(shijianchuo) AS t FROM alerts").get() as { t: number };
    now = oldest.t + SPAN_SECONDS + 3 * 86_400;
    const before = (built.db.prepare("SELECT count(*) AS n FROM alerts").get() as { n: number }).n;
    tick(4);
    const after = (built.db.prepare("SELECT count(*) AS n FROM alerts").get() as { n: number }).n;
    expect(after).toBeLessThan(before);
    const left = built.db
      .prepare("SELECT count(*) AS n FROM alerts WHERE shijianchuo < ?")
      .get(now - SPAN_SECONDS) as {
      n: number;
    };
    expect(left.n).toBe(0);
    const incremental = gramDocs(built.db);
    refreshGramDocs(built.db);
    expect(incremental).toEqual(gramDocs(built.db));
  });
});
