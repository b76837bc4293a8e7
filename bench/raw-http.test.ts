import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawConnection, rawGet } from "./raw-http.ts";

/** A body larger than the connection's read buffer (256 KiB), so that it arrives in several reads. */
const LARGE = JSON.stringify({ data: "x".repeat(600_000), meta: { total: 600_000 } });

let server: Server;
let url: string;
let host: string;
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "";
    if (path === "/length") {
      res.setHeader("Content-Length", Buffer.byteLength('{"meta":{"total":7}}'));
      res.end('{"meta":{"total":7}}');
    } else if (path.startsWith("/chunked")) {
      // No length: Node sends it chunked, in three chunks.
      res.setHeader("Content-Type", "application/json");
      res.write('{"meta":');
      setTimeout(() => {
        res.write('{"total":');
        res.end("42}}");
      }, 5);
    } else if (path === "/large") {
      res.end(LARGE);
    } else if (path === "/empty") {
      res.statusCode = 204;
      res.end();
    } else if (path === "/close") {
      res.socket?.destroy();
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  host = `127.0.0.1:${port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("RawConnection", () => {
  it("reads answers by Content-Length, chunked and without a body, one keep-alive connection", async () => {
    const before = connections;
    const conn = await RawConnection.open(url);
    try {
      const t0 = process.hrtime.bigint();
      const t1 = await conn.send(rawGet(host, "/length"));
      expect(t1).toBeGreaterThan(t0);
      expect(conn.status).toBe(200);
      await conn.send(rawGet(host, "/chunked?a=1"));
      expect(conn.status).toBe(200);
      await conn.send(rawGet(host, "/empty"));
      expect(conn.status).toBe(204);
      await conn.send(rawGet(host, "/missing"));
      expect(conn.status).toBe(404);
      await conn.send(rawGet(host, "/length"));

      expect(conn.count).toBe(5);
      const bodies = [0, 1, 2, 3, 4].map((i) => conn.response(i));
      expect(bodies.map((r) => r.status)).toEqual([200, 200, 204, 404, 200]);
      expect(bodies.map((r) => r.body.toString())).toEqual([
        '{"meta":{"total":7}}',
        '{"meta":{"total":42}}',
        "",
        "{}",
        '{"meta":{"total":7}}',
      ]);
      expect(connections - before).toBe(1);
    } finally {
      conn.close();
    }
  });

  it("reads a body that spans several reads, and grows its arena when it must", async () => {
    const conn = await RawConnection.open(url, { arenaBytes: 1024 });
    try {
      await conn.send(rawGet(host, "/large"));
      await conn.send(rawGet(host, "/large"));
      expect(conn.response(0).body.toString()).toBe(LARGE);
      expect(conn.response(1).body.toString()).toBe(LARGE);
    } finally {
      conn.close();
    }
  });

  it("keeps no answers when told not to, and still reads each status", async () => {
    const conn = await RawConnection.open(url, { keep: false, arenaBytes: 1024 });
    try {
      for (let i = 0; i < 20; i++) await conn.send(rawGet(host, i % 2 ? "/missing" : "/chunked"));
      expect(conn.status).toBe(404);
      expect(conn.count).toBe(0);
    } finally {
      conn.close();
    }
  });

  it("rejects a request whose connection the server closes, and every later one", async () => {
    const conn = await RawConnection.open(url);
    await expect(conn.send(rawGet(host, "/close"))).rejects.toThrow(/closed/);
    await expect(conn.send(rawGet(host, "/length"))).rejects.toThrow(/closed/);
    conn.close();
  });
});
