/**
 * Requests refused before routing (by Node's HTTP parser, or for a missing Host) are answered in
 * the contract's form: problem+json of x-problem-types, CORS, and the RateLimit-* headers when the
 * socket is the client's; they count toward the limit. Sent as raw bytes over a real socket,
 * since no HTTP client library would send them.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../index.ts";
import { testApp } from "../test/helpers.ts";

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(raw: string): RawReply {
  const [head = "", body = ""] = raw.split("\r\n\r\n", 2);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** Sends bytes, reads until the server closes (every answer here ends the connection). */
function raw(port: number, bytes: Buffer | string, localAddress = "127.0.0.1"): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(parse(Buffer.concat(chunks).toString("utf8"))));
    socket.end(bytes);
  });
}

let built: BuiltApp;
let port: number;
beforeAll(async () => {
  built = await testApp({
    size: 200,
    rateLimit: { limit: 3, windowSeconds: 60 },
    trustedProxies: ["127.0.0.9"],
  });
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const address = built.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
});
afterAll(() => built?.close());

const GET = (target: string, headers = "Host: x\r\n") => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

describe("requests refused before routing", () => {
  it.each(
    [
      [
        "a header over 16 KB",
        GET("/api/v1/meta", `Host: x\r\nX-Big: ${"a".repeat(17_000)}\r\n`),
        431,
        "headers-too-large",
      ],
      ["a URL over 16 KB", GET(`/api/v1/meta?q=${"a".repeat(17_000)}`), 431, "headers-too-large"],
      ["a null byte in a header", GET("/api/v1/meta", "Host: x\r\nX-A: a\0b\r\n"), 400, "malformed-request"],
      ["a lower-case method", "get /api/v1/meta HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method-not-allowed"],
      ["an unknown method", "FETCH /api/v1/meta HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method-not-allowed"],
      [
        "raw non-ASCII in the URL",
        Buffer.from(GET("/api/v1/search?q=耳机"), "utf8"),
        400,
        "malformed-request",
      ],
      ["HTTP/1.1 without Host", "GET /api/v1/meta HTTP/1.1\r\n\r\n", 400, "malformed-request"],
      [
        "CONNECT (no tunnel here)",
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n",
        405,
        "method-not-allowed",
      ],
      [
        "both Content-Length and chunked",
        GET("/api/v1/meta", "Host: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n"),
        400,
        "malformed-request",
      ],
    ].map(([name, bytes, status, type], i) => ({ name, bytes, status, type, from: `127.0.1.${i + 1}` })),
  )("$name: problem+json with CORS and the rate headers", async ({ bytes, status, type, from }) => {
    const reply = await raw(port, bytes as string | Buffer, from);
    expect(reply.status).toBe(status);
    expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json\b/);
    expect(reply.headers["access-control-allow-origin"]).toBe("*");
    expect(reply.headers["ratelimit-limit"]).toBe("3");
    const body = JSON.parse(reply.body) as { type: string; status: number; detail: string };
    expect(body).toMatchObject({ type: `/problems/${type}`, status });
    expect(body.detail).not.toContain("aaaa");
    if (status === 405) expect(reply.headers.allow).toBe("GET, HEAD, OPTIONS");
  });

  it("HTTP/1.0 without Host is served", async () => {
    const reply = await raw(port, "GET /api/v1/meta HTTP/1.0\r\n\r\n", "127.0.2.1");
    expect(reply.status).toBe(200);
  });

  it("they count toward the limit: past it, the answer is the 429", async () => {
    const bad = "get /api/v1/meta HTTP/1.1\r\nHost: x\r\n\r\n";
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw(port, bad, "127.0.3.1")).status);
    expect(statuses).toEqual([405, 405, 405, 429]);
    const limited = await raw(port, bad, "127.0.3.1");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited.body)).toMatchObject({ type: "/problems/rate-limited" });
    expect(JSON.parse(limited.body).detail).toContain("More than 3 requests from this IP within 60 seconds");
  });

  it("from a trusted proxy they are not counted (the parser stopped before X-Forwarded-For)", async () => {
    const reply = await raw(port, "get / HTTP/1.1\r\nHost: x\r\n\r\n", "127.0.0.9");
    expect(reply.status).toBe(405);
    expect(reply.headers["ratelimit-limit"]).toBeUndefined();
    expect(reply.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("one truth for the limit", () => {
  it("meta states the limit in force, as the RateLimit-Limit header does", async () => {
    const reply = await raw(port, GET("/api/v1/meta"), "127.0.4.1");
    expect(reply.headers["ratelimit-limit"]).toBe("3");
    const meta = JSON.parse(reply.body) as {
      data: { rate_limit: { limit: number; window_seconds: number } };
    };
    expect(meta.data.rate_limit).toMatchObject({ limit: 3, window_seconds: 60 });
  });
});

describe("GET /healthz", () => {
  it("answers 200 with the store's state, is never counted, and keeps errors out", async () => {
    for (let i = 0; i < 5; i++) {
      const reply = await raw(port, GET("/healthz"), "127.0.5.1");
      expect(reply.status).toBe(200);
      expect(reply.headers["ratelimit-limit"]).toBeUndefined();
      expect(JSON.parse(reply.body)).toEqual({
        status: "ok",
        rateLimit: { store: "local", sharedConfigured: false },
      });
    }
  });
});

describe("a refused client that never closes its side", () => {
  it("is let go by the server itself, so the server's close does not wait for it", async () => {
    const own = await testApp({ size: 200 });
    await own.app.listen({ port: 0, host: "127.0.0.1" });
    const { port: ownPort } = own.app.server.address() as { port: number };
    const accepted = new Promise<Socket>((resolve) => own.app.server.once("connection", resolve));
    const socket = connect({ port: ownPort, host: "127.0.0.1", allowHalfOpen: true });
    try {
      // The server's end of the connection: with allowHalfOpen, the client's own stays open.
      const ended = new Promise<void>((resolve) => socket.on("end", () => resolve()));
      socket.resume();
      socket.write("get / HTTP/1.1\r\nHost: x\r\n\r\n");
      const serverSide = await accepted;
      const released = new Promise<void>((resolve) => serverSide.once("close", () => resolve()));
      await ended;
      // Waited for as an event, not timed: a server that kept the socket until the client closed
      // its side would never get here (the test's timeout), the client holding on all along.
      await released;
      expect(socket.destroyed).toBe(false);
      await own.close();
    } finally {
      socket.destroy();
    }
  });
});

describe("GET /healthz only", () => {
  it("other methods on it are counted and refused like anywhere else", async () => {
    const reply = await raw(
      port,
      "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
      "127.0.6.1",
    );
    expect(reply.status).toBe(405);
    expect(reply.headers["ratelimit-limit"]).toBe("3");
  });
});
