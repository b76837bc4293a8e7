/**
 * The judging worker: each body's bytes are moved to it (not copied) and decoded there, it
 * judges exactly as the proxy's own thread would, and past its backlog an exchange is counted
 * as not judged instead of queued.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBundledServer, type Target } from "../runner/target.ts";
import type { TrafficBytes } from "./body.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { HEADERS_BYTES, inlineJudging, type Judging, workerJudging } from "./judging.ts";

let server: Target;
let answer: { status: number; headers: Record<string, string>; gzipped: Buffer };
beforeAll(async () => {
  server = await startBundledServer();
  const res = await fetch(`${server.baseUrl}/api/v1/meta`);
  const headers = Object.fromEntries(res.headers);
  delete headers["content-length"];
  answer = { status: res.status, headers, gzipped: gzipSync(await res.text()) };
});
afterAll(async () => {
  await server?.close();
});

const target = () => ({ target: server.baseUrl, baseUrl: server.baseUrl, basePath: "" });

/** The bundled server's meta answer as the proxy hands it over: gzipped bytes in a buffer of their own. */
function metaExchange(): TrafficBytes {
  return {
    method: "GET",
    url: `${server.baseUrl}/api/v1/meta`,
    requestHeaders: { "accept-encoding": "gzip" },
    startedAt: 1_700_000_000,
    status: answer.status,
    responseHeaders: { ...answer.headers, "content-encoding": "gzip" },
    kept: { bytes: Uint8Array.from(answer.gzipped), cap: 1_000_000, contentEncoding: "gzip" },
    receivedAt: 1_700_000_000.01,
  };
}

async function withWorker<T>(backlog: Parameters<typeof workerJudging>[1], use: (j: Judging) => Promise<T>) {
  const judging = await workerJudging({ setup: {}, judge: target() }, backlog);
  try {
    return await use(judging);
  } finally {
    await judging.close();
  }
}

describe("the judging worker", () => {
  it("gets each body's bytes moved, decodes them, and judges as the proxy's own thread does", async () => {
    const inline = inlineJudging(new TrafficJudge(await passiveSetup({}), target()));
    const expected = await inline.observe(metaExchange());
    await withWorker(undefined, async (judging) => {
      const exchange = metaExchange();
      const verdict = judging.observe(exchange);
      // Moved, not copied: the proxy's thread no longer holds the body.
      expect(exchange.kept && "bytes" in exchange.kept ? exchange.kept.bytes.byteLength : -1).toBe(0);
      expect(await verdict).toEqual(expected);
      expect(expected).toEqual({ findings: [] });
      const report = await judging.report();
      expect(report.passive).toMatchObject({ exchanges: 1, judged: 1, findings: 0 });
    });
  });

  it("past its backlog of exchanges, counts an exchange as not judged instead of queueing it", async () => {
    await withWorker({ exchanges: 2, bytes: 1 << 30 }, async (judging) => {
      // Sent in one go: none is answered before the last is handed over.
      const verdicts = await Promise.all(Array.from({ length: 5 }, () => judging.observe(metaExchange())));
      const behind = "the judge fell behind the traffic (exchanges waiting at the bound)";
      expect(verdicts.map((v) => v.skipped)).toEqual([undefined, undefined, behind, behind, behind]);
      const report = await judging.report();
      expect(report.passive).toMatchObject({ exchanges: 5, judged: 2, notJudged: { [behind]: 3 } });
    });
  });

  it("past its backlog of bytes, the same", async () => {
    const size = HEADERS_BYTES + answer.gzipped.length;
    await withWorker({ exchanges: 100, bytes: 3 * size - 1 }, async (judging) => {
      const verdicts = await Promise.all(Array.from({ length: 4 }, () => judging.observe(metaExchange())));
      expect(verdicts.map((v) => v.skipped === undefined)).toEqual([true, true, false, false]);
    });
  });
});
