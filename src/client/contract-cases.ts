import { expect } from "vitest";
import type { DealClient } from "./client.ts";
import { DealApiError } from "./errors.ts";
import type { fakeClock } from "./fake-clock.ts";

/**
 * The client scenarios every implementation must support, shared by the tests against the
 * mock and against the reference server: one call per endpoint, typed errors, and a 429
 * survived by waiting. `clock` is the fake clock both the client and the target run on.
 */
export async function callsEveryEndpoint(client: DealClient, account: { uid: number; key: string }) {
  const meta = await client.meta();
  expect(meta.data.rank_types.length).toBeGreaterThan(0);
  const rank = await client.rank({ act: "ershisixiaoshi", limit: 60 });
  expect(rank.meta).toMatchObject({ act: "ershisixiaoshi", limit: 60 });
  for (const entry of rank.data) expect(typeof entry.content).toBe("string");
  const feed = await client.feed({ type: "zdm", limit: 5 });
  expect(feed.data.length).toBeLessThanOrEqual(5);
  const search = await client.search({ mip: 10, cate: "douban" });
  expect(search.data).toEqual([]);
  expect(search.meta.price_scope.unit).toBe("CNY");
  const activities = await client.shenghuo({ with_cates: "1" });
  expect(activities.cates).toBeDefined();
  for (const a of activities.data) expect(a.h5).toMatch(/^https:\/\//);
  expect(await client.rss({ cate: "weibo" })).toMatch(/^<\?xml/);
  const follow = await client.myFollow({ uid: account.uid }, account.key);
  expect(follow.meta.uid).toBe(account.uid);
  const push = await client.myPush({ uid: account.uid, limit: 5 }, account.key);
  expect(push.data.length).toBeLessThanOrEqual(5);
  const legacy = await client.legacyRank("jintian");
  expect(Array.isArray(legacy)).toBe(true);
}

export async function surfacesProblems(client: DealClient, account: { uid: number; key: string }) {
  const bad = await client.rank({ act: "jintian", limit: 301 }).catch((e: unknown) => e);
  expect(bad).toBeInstanceOf(DealApiError);
  expect(bad).toMatchObject({ status: 400, type: "/problems/invalid-parameter" });
  expect((bad as DealApiError).errors?.map((e) => e.name)).toContain("limit");
  const wrongKey = await client.myFollow({ uid: account.uid }, "0".repeat(32)).catch((e: unknown) => e);
  expect(wrongKey).toMatchObject({ status: 401, type: "/problems/unauthorized" });
}

/** Spends a whole window's budget, then one more call: it must succeed after one Retry-After wait. */
export async function survives429ByWaiting(
  client: DealClient,
  clock: ReturnType<typeof fakeClock>,
  policy: { limit: number; windowSeconds: number },
) {
  clock.advance((policy.windowSeconds + 1) * 1000);
  const before = clock.sleeps.length;
  for (let i = 0; i <= policy.limit; i++) await client.meta();
  const waits = clock.sleeps.slice(before);
  expect(waits).toHaveLength(1);
  expect(waits[0]).toBeGreaterThanOrEqual(1000);
  expect(waits[0]).toBeLessThanOrEqual(policy.windowSeconds * 1000);
}
