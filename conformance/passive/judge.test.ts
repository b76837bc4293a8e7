/**
 * dealkit judge: recorded traffic judged offline. The suite's own NDJSON of exchanges
 * (`--record`) exercises every check but the 429 burst's; a HAR as devtools saves it
 * (a whole page's requests, base64 bodies, HTTP/2 pseudo-headers, failed requests) is read for
 * the API's requests only; the cross-answer rules need A′ to equal A. The command line:
 * cli/commands/judge.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { conformanceCommand } from "../main.ts";
import { startProxy } from "../planted/proxy.ts";
import { PLANTED } from "../planted/variants.ts";
import type { RunReport } from "../runner/report.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { judgeCommand } from "./main.ts";
import type { Traffic } from "./traffic.ts";

let server: Target;
let dir: string;

beforeAll(async () => {
  server = await startBundledServer();
  dir = await mkdtemp(join(tmpdir(), "dealkit-judge-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const quiet = () => {};
const failed = (r: RunReport) => r.checks.filter((c) => c.status === "fail").map((c) => c.name);

describe("the suite's own NDJSON of exchanges", () => {
  it("judged passively: every check exercised but the rate limit's burst, 0 findings", async () => {
    const log = join(dir, "suite.ndjson");
    const run = await conformanceCommand({
      seed: 3,
      skipSlow: true,
      reports: [],
      exchangeLog: log,
      out: quiet,
    });
    expect(run.code).toBe(0);
    const judged = await judgeCommand({ file: log, reports: [], out: quiet });
    expect(judged.code).toBe(0);
    expect(judged.report.passive).toMatchObject({ exchanges: run.report?.requests, findings: 0 });
    // Every exchange is judged but request-gate's raw requests, which only the suite judges.
    const raw = (await readFile(log, "utf8")).split("\n").filter((l) => l.includes('"raw":true')).length;
    expect(raw).toBeGreaterThan(0);
    expect(judged.report.passive?.judged).toBe((judged.report.passive?.exchanges ?? 0) - raw);
    const unexercised = judged.report.checks.filter((c) => c.status === "not-exercised").map((c) => c.name);
    // Relations whose second request is on another operation are not paired from traffic.
    const crossing = (await loadSpec())
      .relations()
      .flatMap(({ relation }) => (relation.to ? [`relation:${relation.id}`] : []));
    // request-gate judges only the raw requests the suite sends itself, which no recording holds.
    // The suite sends concurrently: on a loaded machine another request can land inside a relation's
    // A, B, A' sequence, and passive judging (rightly) pairs only back-to-back sequences. Such a
    // relation says so; most same-operation relations must still be paired from the traffic.
    const unpaired = judged.report.checks
      .filter((c) => c.status === "not-exercised" && c.reason?.includes("back to back"))
      .map((c) => c.name);
    const sameOperation = (await loadSpec()).relations().length - crossing.length;
    expect(unpaired.length).toBeLessThan(sameOperation / 2);
    expect(unexercised.filter((name) => !unpaired.includes(name))).toEqual([
      "rate-limit",
      "request-gate",
      ...crossing,
    ]);
  });

  it("of a planted bug: the same rule fails offline", async () => {
    const bug = PLANTED.find((b) => b.name === "rank-content-at-small-limit");
    if (!bug) throw new Error("planted bug renamed");
    const planted = await startProxy(server.baseUrl, bug.mutation, 202);
    const log = join(dir, "planted.ndjson");
    try {
      await conformanceCommand({
        baseUrl: planted.url,
        seed: 3,
        skipSlow: true,
        only: ["rule:rank-content-omitted"],
        reports: [],
        exchangeLog: log,
        out: quiet,
      });
    } finally {
      await planted.close();
    }
    const judged = await judgeCommand({ file: log, reports: [], out: quiet });
    expect(failed(judged.report)).toEqual(["rule:rank-content-omitted"]);
    expect(judged.code).toBe(1);
  });
});

/** A HAR entry as Chrome's devtools save it. */
const entry = (
  url: string,
  status: number,
  text: string | undefined,
  extra: Record<string, unknown> = {},
) => ({
  startedDateTime: new Date(Date.UTC(2026, 10, 26, 8, 0, 0)).toISOString(),
  time: 12.5,
  request: {
    method: "GET",
    url,
    httpVersion: "h2",
    headers: [
      { name: ":authority", value: new URL(url).host },
      { name: "origin", value: "https://app.example" },
      { name: "cookie", value: "session=secret" },
    ],
  },
  response: {
    status,
    headers: [{ name: "content-type", value: "application/json" }],
    content:
      text === undefined
        ? { size: 0, mimeType: "" }
        : { size: text.length, mimeType: "application/json", text },
  },
  ...extra,
});

describe("a HAR file from browser devtools", () => {
  it("judges the API's requests only, decodes base64 bodies, takes status 0 as no answer", async () => {
    const api = "https://deals.example/api-prefix";
    const har = {
      log: {
        version: "1.2",
        creator: { name: "WebInspector", version: "537.36" },
        entries: [
          entry("https://deals.example/app/logo.png", 200, "iVBORw0KGgo=", {}),
          entry("https://cdn.example/api/v1/meta", 200, "{}"),
          entry(`${api}/api/v1/feed?limit=2`, 200, Buffer.from('{"data":[],"meta":{}}').toString("base64"), {
            response: {
              status: 200,
              headers: [{ name: "content-type", value: "application/json" }],
              content: {
                size: 21,
                mimeType: "application/json",
                encoding: "base64",
                text: Buffer.from('{"data":[],"meta":{}}').toString("base64"),
              },
            },
          }),
          entry(`${api}/api/v1/rank?act=jintian`, 0, undefined, { _error: "net::ERR_CONNECTION_RESET" }),
        ],
      },
    };
    const file = join(dir, "devtools.har");
    await writeFile(file, JSON.stringify(har, null, 2));
    const { report } = await judgeCommand({ file, baseUrl: api, reports: [], out: quiet });
    expect(report.passive).toMatchObject({
      exchanges: 4,
      judged: 2,
      notJudged: { "not an operation of the spec": 1, "another origin than --base-url": 1 },
    });
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    // The feed body was read (base64) and judged against its schema: an empty meta is wrong.
    expect(byName.get("response-schema")?.status).toBe("fail");
    expect(byName.get("answers-complete")?.violations[0]?.code).toBe("answers-complete/reset");
    // Cookies never reach a report.
    expect(JSON.stringify(report)).not.toContain("secret");
  });
});

describe("cross-answer rules on traffic", () => {
  const search = (page: number, ids: number[], at: number): Traffic => ({
    method: "GET",
    url: `http://api.example/api/v1/search?q=%E5%88%B8${page > 1 ? `&page=${page}` : ""}`,
    requestHeaders: {},
    client: "10.0.0.1",
    status: 200,
    responseHeaders: { "content-type": "application/json" },
    body: JSON.stringify({
      data: ids.map((id) => ({ id, shijianchuo: 1_795_600_000 - id })),
      meta: { total: 40, page, limit: 20 },
    }),
    startedAt: at,
    receivedAt: at + 0.01,
  });
  const pages = (again: number[]) => {
    const first = Array.from({ length: 20 }, (_, i) => i + 1);
    return [
      search(1, first, 100),
      search(2, [20, ...first.map((i) => i + 20).slice(1)], 101),
      search(1, again, 102),
    ];
  };
  const judgeAll = async (traffic: Traffic[]) => {
    const judge = new TrafficJudge(await passiveSetup({ only: ["relation:search-pages-disjoint"] }), {
      target: "test",
    });
    for (const t of traffic) judge.observe(t);
    return judge.report().checks.find((c) => c.name === "relation:search-pages-disjoint");
  };

  it.each([
    ["A′ equals A: page 2 repeating an item of page 1 fails", { moved: false, want: "fail" }],
    [
      "A′ differs from A (the data moved): inconclusive, never a failure",
      { moved: true, want: "not-exercised" },
    ],
  ])("%s", async (_name, { moved, want }) => {
    const first = Array.from({ length: 20 }, (_, i) => i + 1);
    const result = await judgeAll(pages(moved ? [0, ...first.slice(0, 19)] : first));
    expect(result?.status).toBe(want);
    if (moved) expect(result?.reason).toMatch(/^inconclusive: data changed/);
  });

  it("requests in flight together are no sequence", async () => {
    const first = Array.from({ length: 20 }, (_, i) => i + 1);
    const [a, b, again] = pages(first) as [Traffic, Traffic, Traffic];
    const result = await judgeAll([a, { ...b, startedAt: a.startedAt }, again]);
    expect(result?.status).toBe("not-exercised");
  });
});
