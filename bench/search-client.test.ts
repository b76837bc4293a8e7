import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchClient } from "./search-client-process.ts";

const linux = existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`);

let server: Server;
let url: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? "");
    const total = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n"));
    res.statusCode = total === 3 ? 500 : 200;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ data: [], meta: { total } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("SearchClient (the timing client in its own process)", () => {
  it("sends each path once in order and hands back samples, statuses, totals and waits", async () => {
    const client = await SearchClient.start();
    try {
      expect(client.pid).not.toBe(process.pid);
      const paths = [1, 2, 3, 4, 5].map((n) => `/api/v1/search?q=%E4%BD%A0&n=${n}`);
      seen.length = 0;
      // This test process stands for the server whose threads the client reads.
      const r = await client.once({ url, paths, serverPid: process.pid });
      expect(seen).toEqual(paths);
      expect(r.samples).toHaveLength(5);
      expect(r.samples.every((ms) => ms > 0 && ms < 60_000)).toBe(true);
      expect(r.statuses).toEqual([200, 200, 500, 200, 200]);
      expect(r.totals).toEqual([1, 2, 3, 4, 5]);
      expect(r.clientGc).toHaveLength(5);
      // Epoch spans, in order, each around its sample.
      expect(r.spans).toHaveLength(5);
      expect(Math.abs((r.spans[0]?.[0] ?? 0) - Date.now())).toBeLessThan(60_000);
      for (const [i, [a, b]] of r.spans.entries()) {
        expect(b - a).toBeGreaterThanOrEqual((r.samples[i] ?? 0) - 0.01);
        if (i > 0) expect(a).toBeGreaterThanOrEqual(r.spans[i - 1]?.[1] ?? 0);
      }
      if (linux) {
        expect(r.waits).toHaveLength(5);
        for (const w of r.waits) {
          expect(w.serverCpuMs).toBeGreaterThanOrEqual(0);
          expect(w.clientWaitMs + w.serverWaitMs).toBeCloseTo(w.cpuWaitMs, 6);
        }
      }
    } finally {
      await client.stop();
    }
  }, 60_000);

  it("repeats paths in turn for a duration and counts non-2xx answers", async () => {
    const client = await SearchClient.start();
    try {
      const r = await client.repeat({ url, paths: ["/a?n=1", "/a?n=3"], durationMs: 200 });
      expect(r.samples.length).toBeGreaterThan(1);
      expect(r.non2xx).toBe(Math.floor(r.samples.length / 2));
    } finally {
      await client.stop();
    }
  }, 60_000);

  it("reports a task that fails (nothing listening) instead of hanging", async () => {
    const client = await SearchClient.start();
    try {
      await expect(client.once({ url: "http://127.0.0.1:1", paths: ["/"] })).rejects.toThrow(/search client/);
    } finally {
      await client.stop();
    }
  }, 60_000);
});
