import type { AddressInfo } from "node:net";
import type { Database } from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Category } from "../../src/spec/types.ts";
import { decodeDocs } from "../db/doc-sets.ts";
import { alertTokens } from "../db/grams.ts";
import { injectTransport, NOW_MS, socketTransport, testApp } from "../test/helpers.ts";
import { SPAN_SECONDS } from "./generate.ts";
import { liveTick } from "./live.ts";
import { Prng } from "./prng.ts";

type Feed = { data: { id: number; shijianchuo: number; type?: string }[] };

/** Per token, the ids of the alerts in its set (term_docs), in id order. */
const termIds = (db: Database) => {
  const idOfDoc = new Map(
    db
      .prepare<[], { doc: number; id: number }>("SELECT doc, id FROM alerts")
      .all()
      .map((r) => [r.doc, r.id]),
  );
  const out: Record<string, number[]> = {};
  for (const { term, docs } of db
    .prepare<[], { term: string; docs: Buffer }>("SELECT term, docs FROM term_docs WHERE term <> 'late'")
    .all())
    out[term] = decodeDocs(docs)
      .array()
      .map((d) => idOfDoc.get(d) ?? -1)
      .sort((a, b) => a - b);
  return out;
};

/** The same, computed from the stored rows' text (what a full rebuild would write). */
const rebuilt = (db: Database) => {
  const out: Record<string, number[]> = {};
  for (const row of db
    .prepare<[], { id: number; title: string; content: string; cateid: string; tags: string }>(
      "SELECT id, title, content, cateid, tags FROM alerts ORDER BY id",
    )
    .all())
    for (const t of alertTokens(row)) {
      out[t] ??= [];
      out[t].push(row.id);
    }
  return out;
};

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

  it("keeps every token's set equal to what a full pass over the rows gives, as alerts arrive and leave", () => {
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
    expect(termIds(built.db)).toEqual(rebuilt(built.db));
  });
});

/**
 * A live server's ticks are announced to its store (Store.announceWrite): on a clock that stands
 * still, the check interval never passes, so only the announcement lets a socket's request see them.
 */
describe("live data over a socket", () => {
  it("answers the request after each tick from the tick's data", async () => {
    const built = await testApp({ size: 200, liveEveryMs: 50 });
    try {
      await built.app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = built.app.server.address() as AddressInfo;
      const get = socketTransport(`http://127.0.0.1:${port}`);
      const newestId = () =>
        (built.db.prepare("SELECT max(id) AS id FROM alerts").get() as { id: number }).id;
      const served = async () => (JSON.parse((await get("/api/v1/feed?limit=1")).text) as Feed).data[0]?.id;
      let seen = newestId();
      expect(await served()).toBeGreaterThanOrEqual(seen);
      for (let ticks = 0; ticks < 3; ticks++) {
        // Wait for the next tick (its timer also announces it before anything else runs).
        const deadline = Date.now() + 10_000;
        while (newestId() === seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        expect(newestId()).toBeGreaterThan(seen);
        seen = newestId();
        // At least that tick's alert (a later tick may have come in between).
        expect(await served()).toBeGreaterThanOrEqual(seen);
      }
    } finally {
      await built.close();
    }
  });
});
