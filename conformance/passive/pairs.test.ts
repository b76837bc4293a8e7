/**
 * What `dealkit proxy` keeps for cross-answer comparisons stays within its bounds (pairs.ts
 * PAIRING_LIMITS) however much traffic passes, the oldest going first, and every answer let go is
 * counted in the report. Traffic time only: nothing here waits or times anything.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Exchange } from "../types.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { CrossAnswers, PAIRING_LIMITS, RELEASED } from "./pairs.ts";
import { readTraffic, type Traffic } from "./traffic.ts";

type Setup = Awaited<ReturnType<typeof passiveSetup>>;
let setup: Setup;
beforeAll(async () => {
  setup = await passiveSetup();
});

const T0 = Date.UTC(2026, 10, 26, 8, 0, 0) / 1000;

/** A served search answer, `chars` long, from `client` at traffic time `at` (seconds from T0). */
function traffic(client: string, at: number, q = "京东", chars = 200): Traffic {
  const body = JSON.stringify({
    data: [],
    meta: { q, kp: null, mip: null, mxp: null, cate: "all", page: 1, limit: 20, count: 0, total: 0 },
    pad: "x".repeat(Math.max(0, chars - 150)),
  });
  return {
    method: "GET",
    url: `http://api.example/api/v1/search?q=${encodeURIComponent(q)}&limit=20`,
    requestHeaders: { host: "api.example" },
    client,
    startedAt: T0 + at,
    status: 200,
    responseHeaders: { "content-type": "application/json; charset=utf-8" },
    body,
    receivedAt: T0 + at + 0.01,
  };
}

function exchangeOf(t: Traffic): Exchange {
  const read = readTraffic(setup.spec, t);
  if (!("exchange" in read)) throw new Error(`not judged: ${read.skipped}`);
  return read.exchange;
}

const crossAnswers = () =>
  new CrossAnswers(
    {
      spec: setup.spec,
      releases: setup.releases,
      rate: { limit: setup.spec.rateLimit.limit, windowSeconds: setup.spec.rateLimit.window_seconds },
    },
    setup.checks,
  );

describe("answers kept for comparisons", () => {
  it("one list per client and operation: past the cap the least recently active client's go, counted", () => {
    const cross = crossAnswers();
    const clients = PAIRING_LIMITS.lists * 3;
    // All within one second of traffic time: only the count bound can apply.
    for (let i = 0; i < clients; i++)
      cross.see(exchangeOf(traffic(`10.0.${i >> 8}.${i & 255}`, i / clients)), `c${i}`);
    expect(cross.held().answers).toBe(PAIRING_LIMITS.lists);
    expect(cross.released()[RELEASED.count]).toBe(clients - PAIRING_LIMITS.lists);
    expect(cross.held().gets).toBe(PAIRING_LIMITS.lists);
  });

  it("one client's list keeps its newest answers only, counted", () => {
    const cross = crossAnswers();
    const sent = PAIRING_LIMITS.perList * 4;
    for (let i = 0; i < sent; i++) cross.see(exchangeOf(traffic("10.0.0.1", i / sent, `q${i % 3}`)), "c");
    expect(cross.held().answers).toBe(PAIRING_LIMITS.perList);
    expect(cross.released()[RELEASED.perList]).toBe(sent - PAIRING_LIMITS.perList);
  });

  it("nothing older than the longest comparison stays, whatever the count", () => {
    const cross = crossAnswers();
    const step = 10;
    const sent = 100;
    for (let i = 0; i < sent; i++) cross.see(exchangeOf(traffic(`10.0.1.${i}`, i * step)), `c${i}`);
    // The latest exchange and those received within the window before it.
    expect(cross.held().answers).toBe(Math.floor(PAIRING_LIMITS.seconds / step) + 1);
    expect(cross.released()[RELEASED.age]).toBe(sent - cross.held().answers);
  });

  it("the characters held stay under their bound; answers over the largest kept are counted", () => {
    const cross = crossAnswers();
    const large = Array.from({ length: 20 }, (_, i) =>
      exchangeOf(traffic(`10.0.2.${i}`, i / 20, "q", Math.floor(PAIRING_LIMITS.chars / 5))),
    );
    for (const [i, e] of large.entries()) cross.see(e, `c${i}`);
    expect(cross.held().chars).toBeLessThanOrEqual(PAIRING_LIMITS.chars);
    const each = (large[0] as Exchange).text.length;
    expect(cross.held().answers).toBe(Math.floor(PAIRING_LIMITS.chars / each));
    expect(cross.released()[RELEASED.chars]).toBe(20 - cross.held().answers);
    cross.see(exchangeOf(traffic("10.0.3.1", 1, "q", PAIRING_LIMITS.answerChars + 1000)), "big");
    expect(cross.released()[RELEASED.large]).toBe(1);
  });

  it("the report says how many were let go, and why", () => {
    const judge = new TrafficJudge(setup, { target: "http://api.example" });
    const clients = PAIRING_LIMITS.lists + 40;
    for (let i = 0; i < clients; i++) judge.observe(traffic(`10.0.4.${i}`, i / clients));
    const report = judge.report();
    // The same exchanges' GETs, kept for head-as-get, are bounded at the same count.
    expect(report.passive?.released).toEqual({ [RELEASED.count]: 40, [RELEASED.gets]: 40 });
    expect(report.notes.join("\n")).toContain(`40 ${RELEASED.count}`);
  });
});
