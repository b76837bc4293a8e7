import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDealClient } from "./client.ts";
import { callsEveryEndpoint, surfacesProblems, survives429ByWaiting } from "./contract-cases.ts";
import { runExample } from "./example.ts";
import { fakeClock } from "./fake-clock.ts";

// The reference server is built alongside this client; until its module exists this file
// skips (and says so) instead of failing.
const REFERENCE = new URL("../../reference-server/index.ts", import.meta.url);
const present = existsSync(REFERENCE);
if (!present)
  console.warn(`skipping client tests against the reference server: ${REFERENCE.pathname} is absent`);

interface Started {
  url: string;
  demo?: { uid: number; key: string };
  close(): Promise<void>;
}

describe.skipIf(!present)("typed client against the reference server", () => {
  const clock = fakeClock(Date.now());
  let server: Started;
  let account: { uid: number; key: string };
  const policy = { limit: 60, windowSeconds: 60 };

  beforeAll(async () => {
    const mod = (await import(REFERENCE.href)) as {
      startServer(o: Record<string, unknown>): Promise<Started>;
    };
    server = await mod.startServer({ port: 0, dbPath: ":memory:", size: 2000, now: clock.now });
    if (!server.demo) throw new Error("the reference server did not report its demo account");
    account = server.demo;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("calls every endpoint and gets typed bodies", async () => {
    await callsEveryEndpoint(createDealClient({ baseUrl: server.url, clock }), account);
  });

  it("surfaces 400 and 401 problem bodies as DealApiError", async () => {
    await surfacesProblems(createDealClient({ baseUrl: server.url, clock }), account);
  });

  it("survives the 60/min limit by waiting Retry-After", async () => {
    await survives429ByWaiting(createDealClient({ baseUrl: server.url, clock }), clock, policy);
  });

  it("runs the example script, which survives a 429 by waiting", async () => {
    clock.advance((policy.windowSeconds + 1) * 1000);
    const lines: string[] = [];
    await runExample(server.url, clock, (line) => lines.push(line));
    expect(lines.some((l) => /^429 Too Many Requests: waiting [0-9]+ s/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^done: 62 rank calls/);
  });
});
