/**
 * The raw sender against a socket server that answers as told: the head leaves at exactly the
 * size asked, an answer is read by Content-Length, chunks or close, whether the server closed the
 * connection is seen, and a refused connection is `unreachable` (nothing was sent).
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestCase } from "../types.ts";
import { headBytes, headLines, sendRaw, wireLine } from "./raw-request.ts";

/** What the server does with a head, keyed by the request line's target. */
const ANSWERS: Record<string, (s: Socket) => void> = {
  "/close": (s) => s.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno"),
  "/open": (s) => s.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\nno"),
  "/chunked": (s) =>
    s.end("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"),
  "/until-close": (s) => s.end("HTTP/1.1 400 Bad Request\r\n\r\n"),
};

let server: Server;
let base: string;
const heads: Buffer[] = [];
beforeAll(async () => {
  server = createServer((socket) => {
    let data = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return;
      heads.push(data.subarray(0, end + 4));
      const target = data.toString("latin1").split(" ")[1] ?? "";
      ANSWERS[target]?.(socket);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (pathname: string, wire: RequestCase["wire"] = {}): RequestCase => ({
  method: "GET",
  pathname,
  query: [],
  headers: { origin: "https://example.test" },
  label: "t",
  wire,
});

describe("sendRaw", () => {
  it("sends a head of exactly the size asked, padded by one header line", async () => {
    const before = heads.length;
    await sendRaw(base, request("/close", { headBytes: 9000 }), undefined);
    expect(heads[before]?.length).toBe(9000);
    expect(headBytes(headLines(request("/x", { headBytes: 100 }), new URL(base))).length).toBe(100);
  });

  it.each([
    ["an answer the server closes after", "/close", { status: 400, text: "no", closed: true }],
    [
      "an answer the server keeps the connection open after",
      "/open",
      { status: 400, text: "no", closed: false },
    ],
    ["a chunked body", "/chunked", { status: 200, text: "abcde", closed: true }],
    ["a body delimited by the close", "/until-close", { status: 400, text: "", closed: true }],
  ])("reads %s", async (_name, path, want) => {
    const r = await sendRaw(base, request(path), undefined);
    expect({ status: r.status, text: r.text, closed: r.closed }).toEqual(want);
  });

  it("writes what it is told: no Host, a line that is no field, its own request line", async () => {
    const before = heads.length;
    await sendRaw(
      base,
      request("/close", { noHost: true, lines: ["X-No colon"], requestLine: "GET /close HTTP/1.1" }),
      undefined,
    );
    const head = heads[before]?.toString("latin1") ?? "";
    expect(head).not.toMatch(/^host:/im);
    expect(head).toContain("\r\nX-No colon\r\n");
  });

  it("a connection refused is unreachable: nothing was sent", async () => {
    const r = await sendRaw("http://127.0.0.1:1", request("/close"), undefined);
    expect(r.failure?.kind).toBe("unreachable");
  });

  it("the reproduction line sends the same head through nc, the padding built by the shell", () => {
    const line = wireLine({
      url: `${base}/close`,
      request: request("/close", { headBytes: 9000, noHost: true }),
    });
    expect(line).toMatch(
      /^printf '%s\\r\\n' 'GET \/close HTTP\/1\.1' 'origin: https:\/\/example\.test' "X-Pad: \$\(head -c \d+ \/dev\/zero \| tr '\\0' a\)" '' \| nc 127\.0\.0\.1 \d+$/,
    );
  });
});
