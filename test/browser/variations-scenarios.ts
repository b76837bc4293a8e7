/**
 * What the page does against `dealkit mock --variations` (page.evaluate: self-contained, using
 * only its argument and the bundled client as the global `dealkit`): the app's calls, each once
 * against the mock with variations and once against the same fixtures without, returned for the
 * test to compare, with the variations each varied answer said it carried.
 */
import type * as ClientModule from "../../src/client/index.ts";

export interface VariedTargets {
  varied: string;
  plain: string;
  uid: number;
  key: string;
  rounds: number;
}

export interface PagePair {
  operationId: string;
  got: unknown;
  want: unknown;
}

export async function callsUnderVariations({ varied, plain, uid, key, rounds }: VariedTargets) {
  const { createDealClient } = (globalThis as unknown as { dealkit: typeof ClientModule }).dealkit;
  const seen: string[] = [];
  const failures: string[] = [];
  // The page's own fetch, reading the header the mock exposes to other origins.
  const recording = async (request: Request) => {
    const res = await fetch(request);
    seen.push(...(res.headers.get("X-Dealkit-Variations") ?? "").split(",").filter(Boolean));
    return res;
  };
  // The client's sleeps move the mock's held clock (exposed by the test) instead of real time.
  const advance = (globalThis as unknown as { advanceMockClock(ms: number): Promise<void> }).advanceMockClock;
  const clock = { now: () => Date.now(), sleep: (ms: number) => advance(ms) };
  const client = createDealClient({ baseUrl: varied, apiKey: key, fetch: recording, clock });
  const reference = createDealClient({ baseUrl: plain, apiKey: key });
  const calls: [string, (c: ClientModule.DealClient) => Promise<unknown>][] = [
    ["getMeta", (c) => c.meta()],
    ["getRank", (c) => c.rank({ act: "jintian" })],
    ["getRank", (c) => c.rank({ act: "santian", limit: 60 })],
    ["getFeed", (c) => c.feed()],
    ["getFeed", (c) => c.feed({ type: "zdm", limit: 30 })],
    ["searchAlerts", (c) => c.search({ q: "券" })],
    ["searchAlerts", (c) => c.search({ mip: 1, mxp: 500 })],
    ["listActivities", (c) => c.shenghuo({ with_cates: "1" })],
    ["getRss", (c) => c.rss()],
    ["getMyFollowHits", (c) => c.myFollow({ uid })],
    ["getMyPushHits", (c) => c.myPush({ uid })],
    ["getLegacyRankFile", (c) => c.legacyRank("jintian")],
  ];
  const pairs: PagePair[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [operationId, call] of calls) {
      try {
        const got = await call(client);
        pairs.push({ operationId, got, want: await call(reference) });
      } catch (err) {
        failures.push(`${operationId}: ${String(err)}`);
      }
    }
  }
  return { pairs, seen: [...new Set(seen)], failures };
}
