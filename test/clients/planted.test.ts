/**
 * The client judge against planted faulty clients: each, run against the mock (or, where the mock's
 * variation header is needed, recorded on the client's side and judged as a file), is caught by
 * exactly its finding; the kit's own typed client gets none.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeClientsCommand } from "../../conformance/clients/judge-file.ts";
import type { ClientRuleId } from "../../conformance/clients/rules.ts";
import type { ClientsReport } from "../../conformance/clients/types.ts";
import { exchangeLine } from "../../conformance/passive/ndjson.ts";
import type { Traffic } from "../../conformance/passive/traffic.ts";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { type Got, httpGet } from "../../mocks/http-get.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { createDealClient } from "../../src/client/client.ts";
import { callsEveryEndpoint, survives429ByWaiting } from "../../src/client/contract-cases.ts";
import { fakeClock } from "../../src/client/fake-clock.ts";
import { ratePolicyOf } from "../../src/client/spec-policy.ts";
import { loadSpec } from "../../src/spec/load.ts";
import {
  ignoring429s,
  keyInQuery,
  type PlantedRun,
  repeatingRefused,
  retryIgnoringRetryAfter,
  strictParser,
  tolerantParser,
} from "./faulty-clients.ts";

// The mock and every planted client share one fake clock: a client's sleep moves the mock's window.
const clock = fakeClock(Date.now());
const account = { uid: DEFAULT_DEMO_ACCOUNT.uid, key: DEFAULT_DEMO_ACCOUNT.apiKey };
let mock: RunningMock;
let limit: number;

beforeAll(async () => {
  mock = await startMock({ port: 0, now: clock.now });
  limit = ratePolicyOf(await loadSpec()).limit;
});
afterAll(async () => {
  await mock?.close();
});

const run = (address: string): PlantedRun => ({ base: mock.url, address, sleep: clock.sleep, account });

/** The rules the mock's judge names for one client address, sorted. */
function rulesFor(report: ClientsReport | undefined, address: string): ClientRuleId[] {
  const client = report?.clients.find((c) => c.client === address);
  if (!client) throw new Error(`the mock saw no client ${address}`);
  return client.findings.map((f) => f.rule).sort();
}

const planted: [string, { address: string; play: (r: PlantedRun) => Promise<void>; want: ClientRuleId }][] = [
  [
    "a retry loop deaf to Retry-After",
    {
      address: "127.0.0.11",
      play: (r) => retryIgnoringRetryAfter(r, limit),
      want: "client-waits-retry-after",
    },
  ],
  [
    "a client that ignores 429s and keeps going",
    { address: "127.0.0.12", play: (r) => ignoring429s(r, limit), want: "client-paces-below-limit" },
  ],
  [
    "a client that puts the key in the query",
    { address: "127.0.0.13", play: keyInQuery, want: "client-key-in-header" },
  ],
  [
    "a client that repeats a refused request",
    { address: "127.0.0.14", play: repeatingRefused, want: "client-repeats-refused-request" },
  ],
];

describe("planted faulty clients against the mock", () => {
  it.each(planted)("%s is caught by exactly its finding", async (_, { address, play, want }) => {
    await play(run(address));
    expect(rulesFor(mock.clients?.(), address)).toEqual([want]);
  });

  it("serves the report at /__dealkit/clients, as a client's own suite reads it", async () => {
    const got = await httpGet(`${mock.url}/__dealkit/clients`);
    const report = got.json() as ClientsReport;
    expect(report).toMatchObject({ kind: "dealkit-clients", verdict: "failed" });
    const retry = report.clients.find((c) => c.client === "127.0.0.11")?.findings[0];
    expect(retry?.message).toMatch(
      /^retried 0\.3 s after a 429 to GET \/api\/v1\/feed\?cate=weibo that asked Retry-After: \d+/,
    );
    expect(JSON.stringify(report)).not.toContain(account.key);
  });

  it("the kit's typed client gets no finding", async () => {
    const client = createDealClient({ baseUrl: mock.url, clock });
    await callsEveryEndpoint(client, account);
    await survives429ByWaiting(client, clock, ratePolicyOf(await loadSpec()));
    const typed = mock.clients?.().clients.find((c) => c.client === "127.0.0.1");
    expect(typed?.requests).toBeGreaterThan(limit);
    expect(typed?.findings).toEqual([]);
  });
});

/**
 * A transport that lets every answer after the first carry an added field, named in the header
 * `dealkit mock --variations` sets, and records each exchange on the client's side (as a browser's
 * HAR would): the variation is simulated here, the mock's own variations are another module's.
 */
function variedRecording(address: string, recorded: Traffic[]) {
  let answers = 0;
  return async (path: string): Promise<Got> => {
    const startedAt = clock.now() / 1000;
    const requestHeaders = { "user-agent": "poller/2.0" };
    const got = await httpGet(`${mock.url}${path}`, { localAddress: address, headers: requestHeaders });
    const vary = answers++ > 0;
    const body = JSON.parse(got.text) as { data: Record<string, unknown>[] };
    if (vary) for (const item of body.data) item.coupon_code = "NEW-FIELD";
    const text = JSON.stringify(body);
    const headers = vary ? { ...got.headers, "x-dealkit-variations": "field-added" } : got.headers;
    const url = `${mock.url}${path}`;
    recorded.push({
      method: "GET",
      url,
      requestHeaders,
      client: address,
      status: got.status,
      responseHeaders: headers,
      body: text,
      startedAt,
      receivedAt: clock.now() / 1000,
    });
    return { ...got, headers, text, json: () => JSON.parse(text) };
  };
}

async function judgedRecording(recorded: Traffic[]) {
  const dir = await mkdtemp(join(tmpdir(), "dealkit-clients-"));
  const file = join(dir, "traffic.ndjson");
  await writeFile(file, recorded.map(exchangeLine).join(""));
  const json = join(dir, "clients.json");
  const result = await judgeClientsCommand({
    file,
    reports: [{ format: "json", path: json }],
    out: () => {},
  });
  return { ...result, written: JSON.parse(await readFile(json, "utf8")) as ClientsReport };
}

describe("planted clients and the variations v1 allows (recorded traffic, dealkit judge --clients)", () => {
  it("a client that fails on an added field is caught by exactly client-ignores-unknown-fields", async () => {
    const recorded: Traffic[] = [];
    await strictParser(variedRecording("127.0.0.15", recorded), clock.sleep);
    const { code, written } = await judgedRecording(recorded);
    expect(code).toBe(1);
    expect(rulesFor(written, "127.0.0.15")).toEqual(["client-ignores-unknown-fields"]);
    const outcomes = written.clients[0]?.variations.map((v) => v.next);
    expect(outcomes).toEqual(["repeated-at-once", "repeated-at-once", "stopped"]);
  });

  it("a client that ignores the added field passes, its outcomes shown", async () => {
    const recorded: Traffic[] = [];
    await tolerantParser(variedRecording("127.0.0.16", recorded), clock.sleep);
    const { code, written } = await judgedRecording(recorded);
    expect(code).toBe(0);
    expect(written.verdict).toBe("passed");
    expect(written.clients[0]?.variations.map((v) => v.next)).toEqual(["went-on", "stopped"]);
  });
});
