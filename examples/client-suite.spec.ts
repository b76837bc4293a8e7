/**
 * An app's client test suite against `dealkit mock --variations` (copy it into your project as
 * `client-suite.test.ts`; it runs under vitest). It starts the mock with the variations v1
 * allows, runs the app's client against it, and ends by asking the mock's judge of clients
 * whether the app behaved (waited Retry-After, never retried at once, kept its key in its
 * header). Your app's own calls replace `createDealClient`'s below.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createDealClient } from "dealkit/client";
import { afterAll, beforeAll, expect, it } from "vitest";

let mock: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  // Seed 42: the same requests get the same variations on every run (another seed, others).
  // The bin itself, not `npx dealkit`: npm exec does not pass SIGINT on, so the mock would outlive
  // the suite and never write its report.
  mock = spawn("node_modules/.bin/dealkit", [
    "mock",
    "--port",
    "0",
    "--variations",
    "42",
    "--clients-report",
    "json=dealkit-clients.json",
  ]);
  baseUrl = await new Promise<string>((resolve, reject) => {
    mock.stdout?.on("data", (chunk: Buffer) => {
      const url = /listening on (http:\/\/\S+)/.exec(chunk.toString())?.[1];
      if (url) resolve(url);
    });
    mock.once("exit", (code) => reject(new Error(`dealkit mock exited (${code})`)));
  });
}, 30_000);

afterAll(() => {
  mock.kill("SIGINT"); // writes dealkit-clients.json
});

it("shows today's rank, whatever the mock varies", async () => {
  const client = createDealClient({ baseUrl });
  for (let i = 0; i < 20; i++) {
    const rank = await client.rank({ act: "jintian" });
    for (const alert of rank.data) expect(alert.title).not.toBe("");
  }
});

it("broke no client rule of the contract", async () => {
  const report = await (await fetch(`${baseUrl}/__dealkit/clients`)).json();
  expect(report.verdict, JSON.stringify(report.clients, null, 2)).toBe("passed");
});
