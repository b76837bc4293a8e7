import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { createRuleLayer } from "../../mocks/rule-layer.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { VARIATIONS, VARIATIONS_HEADER } from "../../mocks/variations-catalogue.ts";
import { unexplainedDifferences } from "../../mocks/variations-compare.ts";
import { loadSpec } from "../spec/load.ts";
import type { Spec } from "../spec/spec.ts";
import { createDealClient, type DealClient } from "./client.ts";
import { fakeClock } from "./fake-clock.ts";

// The typed client against `dealkit mock --variations`, and the same calls against the same
// fixtures without variations (a second rule layer over the same Prism): every call must succeed
// and return the same data, but for what the variations explain (fields added, optional fields
// absent, key order). One fake clock for both layers and the client: a drawn 429's Retry-After
// sleep moves the mock's time, and the unvaried call right after sees the same instant.
const clock = fakeClock(Date.UTC(2026, 11, 7, 4, 0, 0));
const uid = DEFAULT_DEMO_ACCOUNT.uid;
let spec: Spec;
let varied: RunningMock;
let plain: Server;
let plainUrl: string;

beforeAll(async () => {
  spec = await loadSpec();
  varied = await startMock({ port: 0, now: clock.now, variations: "typed-client" });
  plain = createRuleLayer({ spec, upstream: varied.prismUrl, now: clock.now });
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
});
afterAll(async () => {
  plain?.closeAllConnections();
  await new Promise((resolve) => plain?.close(resolve));
  await varied?.close();
});

/** Each call of the client, with the operation whose 200 schema explains its data. */
const CALLS: [string, (c: DealClient) => Promise<unknown>][] = [
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

describe("typed client against the mock with variations (Node)", () => {
  it("every call succeeds, and its data equals the unvaried data but for what the variations explain", async () => {
    const seen = new Set<string>();
    // The client's own transport, recording which variations each answer carried.
    const recording = async (request: Request) => {
      const res = await globalThis.fetch(request);
      for (const id of (res.headers.get(VARIATIONS_HEADER) ?? "").split(",")) if (id) seen.add(id);
      return res;
    };
    const options = { apiKey: DEFAULT_DEMO_ACCOUNT.apiKey, clock };
    const client = createDealClient({ ...options, baseUrl: varied.url, fetch: recording });
    const reference = createDealClient({ ...options, baseUrl: plainUrl });
    for (let round = 0; round < 5; round++) {
      for (const [operationId, call] of CALLS) {
        clock.advance(1000); // 120 calls a layer over two minutes: never the real 60/min limit
        const got = await call(client);
        const want = await call(reference);
        if (typeof want === "string") {
          expect(String(got).replaceAll(varied.url, plainUrl), operationId).toBe(want);
          continue;
        }
        const schema = spec.responseSchema(operationId, 200, "application/json");
        expect(unexplainedDifferences(got, want, schema), `${operationId} round ${round}`).toEqual([]);
      }
    }
    expect([...seen].sort()).toEqual(VARIATIONS.map((v) => v.id).sort());
    // The drawn 429s were waited out, each for its Retry-After.
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(clock.sleeps.every((ms) => ms >= 1000)).toBe(true);
  });
});
