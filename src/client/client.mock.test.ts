import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { loadSpec } from "../spec/load.ts";
import { createDealClient } from "./client.ts";
import { callsEveryEndpoint, surfacesProblems, survives429ByWaiting } from "./contract-cases.ts";
import { fakeClock } from "./fake-clock.ts";
import { ratePolicyOf } from "./spec-policy.ts";

// The mock's rule layer and the client share one fake clock: the client's Retry-After sleep
// moves the mock's sliding window, so the 429 path runs in milliseconds.
const clock = fakeClock(Date.now());
const account = { uid: DEFAULT_DEMO_ACCOUNT.uid, key: DEFAULT_DEMO_ACCOUNT.apiKey };
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, now: clock.now });
});
afterAll(async () => {
  await mock?.close();
});

describe("typed client against the mock", () => {
  it("calls every endpoint and gets typed bodies", async () => {
    await callsEveryEndpoint(createDealClient({ baseUrl: mock.url, clock }), account);
  });

  it("surfaces 400 and 401 problem bodies as DealApiError", async () => {
    await surfacesProblems(createDealClient({ baseUrl: mock.url, clock }), account);
  });

  it("survives the 60/min limit by waiting Retry-After", async () => {
    const policy = ratePolicyOf(await loadSpec());
    await survives429ByWaiting(createDealClient({ baseUrl: mock.url, clock }), clock, policy);
  });

  it("waits on a 429 forced with Prefer, then surfaces it when the bound is reached", async () => {
    const client = createDealClient({ baseUrl: mock.url, clock, retry: { maxRetries: 1 } });
    const before = clock.sleeps.length;
    const { error, response } = await client.api.GET("/api/v1/meta", { headers: { Prefer: "code=429" } });
    expect(response.status).toBe(429);
    const waits = clock.sleeps.slice(before);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(response.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    expect(error).toMatchObject({ type: "/problems/rate-limited", status: 429 });
  });
});
