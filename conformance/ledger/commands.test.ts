/**
 * --ledger on the commands: dealkit judge over recordings made weeks apart (dated by the
 * traffic, not the clock), and one suite run against the bundled server.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { conformanceCommand, FORMATS } from "../main.ts";
import { judgeCommand, proxyCommand } from "../passive/main.ts";
import { exchangeLine } from "../passive/ndjson.ts";
import type { Traffic } from "../passive/traffic.ts";
import { startBundledServer } from "../runner/target.ts";
import { readLedger } from "./file.ts";
import { mergeLedgers } from "./merge.ts";
import { decodeLedger, encodeLedger } from "./storage.ts";
import type { Ledger, Stamp } from "./types.ts";

/** The same ledger as if its run happened `ms` later under another id: every stamp moved. */
function later(ledger: Ledger, ms: number, run: string): Ledger {
  const move = (at: string) => new Date(Date.parse(at) + ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  return JSON.parse(JSON.stringify(ledger), (key, value) => {
    if (value && typeof value === "object" && typeof value.at === "string" && typeof value.run === "string")
      return { at: move(value.at), run } satisfies Stamp;
    if (key === "types") {
      const moved: Record<string, unknown> = {};
      for (const [t, [n, first, last]] of Object.entries(value as Record<string, [number, string, string]>))
        moved[t] = [n, move(first), move(last)];
      return moved;
    }
    return value;
  }) as Ledger;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dealkit-ledger-commands-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const DAY = 86_400;
const T0 = Date.parse("2026-03-02T08:00:00Z") / 1000;
const BASE = "http://deploy.test";

function feedTraffic(at: number, louzhu: boolean): Traffic {
  const data = [1, 2, 3].map((id) => ({
    id,
    title: `alert ${id}`,
    cateid: "10",
    catename: "微博线报",
    ...(louzhu ? { louzhu: "someone" } : {}),
  }));
  return {
    method: "GET",
    url: `${BASE}/api/v1/feed`,
    requestHeaders: {},
    status: 200,
    responseHeaders: { "content-type": "application/json" },
    body: JSON.stringify({ data, meta: { cate: "all", type: null, limit: 20, count: 3, retention: 20 } }),
    startedAt: at,
    receivedAt: at + 0.1,
  };
}

const meta = (version: number, at: number): Traffic => ({
  method: "GET",
  url: `${BASE}/api/v${version}/meta`,
  requestHeaders: {},
  status: 200,
  responseHeaders: { "content-type": "application/json" },
  body: JSON.stringify({ data: { api_version: `${version}.0.0` } }),
  startedAt: at,
  receivedAt: at,
});

async function recording(name: string, traffic: Traffic[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, traffic.map(exchangeLine).join(""));
  return file;
}

describe("dealkit judge --ledger", () => {
  it("recordings of four weeks with a field, then two without it: the removal, dated by the traffic", async () => {
    const ledger = join(dir, "judge.json");
    const before = Array.from({ length: 28 }, (_, day) => feedTraffic(T0 + day * DAY, true));
    const without = (from: number) =>
      Array.from({ length: 3 }, (_, i) => feedTraffic(T0 + (from + i) * DAY, false));
    const out = () => {};
    const first = await judgeCommand({
      file: await recording("a.ndjson", [meta(1, T0), ...before, meta(2, T0)]),
      reports: [],
      ledger,
      out,
    });
    // The ledger's first run: nothing before it to compare with, which is no gap in this run.
    expect(first.report.checks.find((c) => c.name === "ledger:field-removed")?.status).toBe("skipped");
    // One recording without it is one run: never enough, whatever it holds.
    const second = await judgeCommand({
      file: await recording("b.ndjson", without(28)),
      reports: [],
      ledger,
      out,
    });
    expect(second.report.checks.find((c) => c.name === "ledger:field-removed")?.status).toBe("pass");
    const third = await judgeCommand({
      file: await recording("c.ndjson", without(31)),
      reports: [],
      ledger,
      out,
    });
    const removed = third.report.checks.find((c) => c.name === "ledger:field-removed");
    expect(removed?.status).toBe("fail");
    expect(removed?.violations[0]?.title).toContain(
      "always carried from 2026-03-02 to 2026-03-29, lacking since 2026-03-30",
    );
    expect(third.code).toBe(1);
    const written = await readLedger(ledger);
    expect(written.runs).toBe(3);
    expect(written.versions["/api/v2"]?.alive?.first.at).toBe("2026-03-02T08:00:00Z");
    // Every report format carries the ledger's check and its dates.
    for (const format of Object.values(FORMATS))
      expect(format(third.report)).toContain("ledger:field-removed");
    expect(third.report.notes.some((n) => n.includes("/api/v2 first seen 2026-03-02"))).toBe(true);
  });
});

describe("dealkit proxy --ledger", () => {
  it("records the answers passing through, and v1's meta", async () => {
    const upstream = await startBundledServer();
    const ledger = join(dir, "proxy.json");
    try {
      const proxy = await proxyCommand({
        upstream: upstream.baseUrl,
        port: 0,
        inline: true,
        reports: [],
        ledger,
        out: () => {},
      });
      for (const path of ["/api/v1/meta", "/api/v1/feed?type=zdm", "/api/v1/feed"])
        await (await fetch(`${proxy.url}${path}`)).text();
      const { report } = await proxy.stop();
      expect(report.checks.map((c) => c.name)).toContain("ledger:field-removed");
    } finally {
      await upstream.close();
    }
    const written = await readLedger(ledger);
    expect(Object.keys(written.kinds)).toEqual(expect.arrayContaining(["getMeta 200", "getFeed 200"]));
    expect(Object.keys(written.kinds["getFeed 200"]?.fields ?? {})).toEqual(
      expect.arrayContaining(["data[].cateid", "data[type=smzdm].mall_name"]),
    );
    expect(written.versions["/api/v1"]?.alive?.n).toBe(1);
  }, 60_000);
});

describe("dealkit conformance --ledger", () => {
  it("merges the run into the ledger (the bundled server's answers, v2 probed once) and reports its checks", async () => {
    const ledger = join(dir, "suite.json");
    const result = await conformanceCommand({
      seed: 3,
      only: ["response-schema"],
      skipSlow: true,
      randomRuns: 0,
      reports: [],
      ledger,
      out: () => {},
    });
    const written = await readLedger(ledger);
    expect(written.runs).toBe(1);
    // A thousand runs like this one, each a day later: the file grows with the paths, not the runs.
    let thousand = written;
    for (let i = 1; i < 1000; i++)
      thousand = mergeLedgers(thousand, later(written, i * 86_400_000, `run${i}`));
    const bytes = Buffer.byteLength(encodeLedger(thousand));
    expect(thousand.runs).toBe(1000);
    expect(decodeLedger(encodeLedger(thousand))).toEqual(thousand);
    expect(bytes).toBeLessThan(200_000);
    expect(Object.keys(written.kinds)).toEqual(expect.arrayContaining(["getMeta 200", "getFeed 200"]));
    expect(written.versions["/api/v1"]?.releases).toHaveProperty([(await loadSpec()).version]);
    // The bundled server has no v2: probed once, seen gone.
    expect(written.versions["/api/v2"]?.gone?.how).toBe("404");
    const names = result.report?.checks.map((c) => c.name) ?? [];
    expect(names).toEqual(
      expect.arrayContaining(["ledger:field-removed", "ledger:type-changed", "ledger:v1-retired-early"]),
    );
    expect(result.code).toBe(0);
  }, 180_000);
});
