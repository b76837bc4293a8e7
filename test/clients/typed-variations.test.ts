/**
 * The kit's typed client against `dealkit mock --variations`: the judge of clients sees the
 * variations through X-Dealkit-Variations and what the client did after each, and finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { createDealClient } from "../../src/client/client.ts";
import { callsEveryEndpoint } from "../../src/client/contract-cases.ts";
import { fakeClock } from "../../src/client/fake-clock.ts";

// One fake clock for the mock and the client: a drawn 429's Retry-After sleep moves the mock's time.
const clock = fakeClock(Date.UTC(2026, 11, 7, 4, 0, 0));
const account = { uid: DEFAULT_DEMO_ACCOUNT.uid, key: DEFAULT_DEMO_ACCOUNT.apiKey };
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, now: clock.now, variations: "typed-client" });
});
afterAll(async () => {
  await mock?.close();
});

describe("the typed client under variations, judged as a client", () => {
  it("gets varied answers, goes on after each, and has no finding", async () => {
    const client = createDealClient({ baseUrl: mock.url, clock });
    for (let round = 0; round < 3; round++) {
      await callsEveryEndpoint(client, account);
      await clock.sleep(5000);
    }
    const report = mock.clients?.();
    const typed = report?.clients.find((c) => c.client === "127.0.0.1");
    expect(typed?.variations.length).toBeGreaterThan(0);
    expect(typed?.variations.filter((v) => v.next === "repeated-at-once")).toEqual([]);
    expect(typed?.findings).toEqual([]);
    expect(report?.verdict).toBe("passed");
  });
});
