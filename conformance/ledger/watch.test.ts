/**
 * The watch over simulated weeks and months, against a small node:http target whose behaviour
 * changes midway: the clock and the wait between intervals are injected, so a simulated half
 * year takes a second.
 */

import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAgents } from "../http/client.ts";
import { watch } from "./watch.ts";

const DAY = 86_400_000;
const T0 = Date.parse("2026-01-05T08:00:00Z");

/** What the target does at a simulated instant. */
interface Behaviour {
  louzhu: boolean;
  extra: boolean;
  v2: boolean;
  v1: boolean;
}

let server: http.Server;
let baseUrl: string;
let behaviour: Behaviour;
let received = 0;
let dir: string;

function answer(url: URL): { status: number; body?: unknown } {
  const { pathname } = url;
  if (pathname.startsWith("/api/v2/"))
    return behaviour.v2 ? { status: 200, body: { data: { api_version: "2.0.0" } } } : { status: 404 };
  if (!behaviour.v1 && pathname.startsWith("/api/v1/")) return { status: 404 };
  if (pathname === "/api/v1/meta") return { status: 200, body: { data: { api_version: "1.1.0" } } };
  const items = [1, 2, 3].map((id) => ({
    id,
    title: `t${id}`,
    cateid: "10",
    ...(behaviour.louzhu ? { louzhu: "someone" } : {}),
    ...(behaviour.extra ? { hot: true, badge: { label: "hot", color: "red" } } : {}),
  }));
  return { status: 200, body: { data: items, meta: { count: items.length } } };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dealkit-watch-"));
  server = http.createServer((req, res) => {
    received++;
    const { status, body } = answer(new URL(req.url ?? "/", "http://x"));
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body === undefined ? JSON.stringify({ type: "about:blank", status }) : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  closeAgents();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Runs the watch with an injected clock; `change` sets the behaviour of each interval (1-based). */
async function simulate(
  name: string,
  intervals: number,
  everyMs: number,
  budget: number,
  change: (interval: number) => Behaviour,
) {
  let clock = T0;
  let interval = 1;
  behaviour = change(interval);
  received = 0;
  const perInterval: number[] = [];
  const lines: Record<string, unknown>[] = [];
  await watch({
    baseUrl,
    ledger: join(dir, `${name}.json`),
    everyMs,
    budget,
    intervals,
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    now: () => clock,
    sleep: async (ms) => {
      perInterval.push(received);
      received = 0;
      clock += ms;
      interval++;
      behaviour = change(interval);
    },
  });
  perInterval.push(received);
  return { lines, perInterval, ledgerLines: lines.filter((l) => l.kind === "ledger") };
}

const normal: Behaviour = { louzhu: true, extra: false, v2: false, v1: true };

describe("dealkit watch over simulated weeks", () => {
  it("reports a field the target stops sending midway, with the dates, and never exceeds the budget", async () => {
    const { ledgerLines, perInterval, lines } = await simulate("drop", 8, 7 * DAY, 12, (i) => ({
      ...normal,
      louzhu: i < 5,
    }));
    expect(perInterval).toHaveLength(8);
    for (const n of perInterval) expect(n).toBeLessThanOrEqual(12);
    expect(perInterval.every((n) => n > 0)).toBe(true);
    const removed = ledgerLines.filter((l) => l.check === "ledger:field-removed");
    expect(removed.length).toBeGreaterThan(0);
    expect(removed[0]).toMatchObject({ level: "failure", path: "data[].louzhu" });
    // Carried in weeks 1 to 4 (5 to 26 January), lacking from week 5 (2 February).
    expect(String(removed[0]?.title)).toContain(
      "always carried from 2026-01-05 to 2026-01-26, lacking since 2026-02-02",
    );
    // Printed once, when it first came: the interval lines follow it.
    expect(lines.filter((l) => l.kind === "interval")).toHaveLength(8);
  });

  it("a target that only adds fields gets information lines and no failure", async () => {
    const { ledgerLines } = await simulate("add", 5, 7 * DAY, 12, (i) => ({ ...normal, extra: i >= 3 }));
    const added = ledgerLines.filter((l) => l.check === "ledger:field-added");
    expect(added.map((l) => l.path)).toContain("data[].hot");
    // A new object is one line, not one per field inside it.
    expect(added.map((l) => l.path)).toContain("data[].badge");
    expect(added.map((l) => l.path)).not.toContain("data[].badge.label");
    expect(added.every((l) => l.level === "info")).toBe(true);
    expect(ledgerLines.filter((l) => l.level === "failure")).toEqual([]);
  });

  it("v1 gone two months after v2 appeared is a failure, with the ledger's dates", async () => {
    // Monthly intervals: v2 from the second, v1 gone from the fourth.
    const { ledgerLines } = await simulate("early", 4, 30 * DAY, 4, (i) => ({
      ...normal,
      v2: i >= 2,
      v1: i < 4,
    }));
    const retired = ledgerLines.filter((l) => l.check === "ledger:v1-retired-early" && l.level === "failure");
    expect(retired).toHaveLength(1);
    expect(String(retired[0]?.title)).toMatch(
      /\/api\/v1 gone \(404\) since 2026-04-05, 2 months after \/api\/v2 was first seen \(2026-02-04\)/,
    );
  });

  it("v1 gone five and a half months after v2 appeared is a warning, not a failure", async () => {
    const { ledgerLines } = await simulate("late", 3, 170 * DAY, 4, (i) => ({
      ...normal,
      v2: true,
      v1: i < 2,
    }));
    const retired = ledgerLines.filter((l) => l.check === "ledger:v1-retired-early" && l.level !== "info");
    expect(retired.map((l) => l.level)).toEqual(["warning"]);
  });
});
