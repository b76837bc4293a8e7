/**
 * A planted client that fails on an added field, against `dealkit mock --variations`: the mock's
 * own X-Dealkit-Variations header tells the judge, which catches it by exactly
 * client-ignores-unknown-fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { fakeClock } from "../../src/client/fake-clock.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { strictPoller } from "./faulty-clients.ts";

const clock = fakeClock(Date.UTC(2026, 11, 7, 4, 0, 0));
let mock: RunningMock;
let known: Set<string>;

beforeAll(async () => {
  mock = await startMock({ port: 0, now: clock.now, variations: "strict" });
  // The fields a client generated from the spec knows: every property of a feed item's schemas.
  const doc = (await loadSpec()).doc as {
    paths: Record<string, { get: { responses: Record<string, unknown> } }>;
  };
  const ok = doc.paths["/api/v1/feed"]?.get.responses["200"] as {
    content: Record<
      string,
      { schema: { properties: { data: { items: { oneOf: { properties: object }[] } } } } }
    >;
  };
  const items = ok.content["application/json"]?.schema.properties.data.items.oneOf ?? [];
  known = new Set(items.flatMap((s) => Object.keys(s.properties)));
});
afterAll(async () => {
  await mock?.close();
});

describe("a strict client against mock --variations", () => {
  it("is caught by exactly client-ignores-unknown-fields", async () => {
    const account = { uid: DEFAULT_DEMO_ACCOUNT.uid, key: DEFAULT_DEMO_ACCOUNT.apiKey };
    await strictPoller({ base: mock.url, address: "127.0.0.41", sleep: clock.sleep, account }, known, 20);
    const client = mock.clients?.().clients.find((c) => c.client === "127.0.0.41");
    expect(client?.findings.map((f) => f.rule)).toEqual(["client-ignores-unknown-fields"]);
    expect(
      client?.variations.some((v) => v.next === "repeated-at-once" && v.variations.includes("added-fields")),
    ).toBe(true);
  });
});
