/**
 * Header strings reach Node one-byte (one-byte.ts): the helper itself, and every name and value
 * the responder hands to writeHead, over a socket as in the fast lane: plain, kept, compressed,
 * of another type (RSS), of an account (no-store) and refused.
 */
import { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serialize } from "node:v8";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BuiltApp } from "../index.ts";
import { DEMO_KEY, socketTransport, type Transport, testApp } from "../test/helpers.ts";
import { oneByte } from "./one-byte.ts";

/**
 * Whether V8 holds `text` one byte per character: its serializer writes such a string under the
 * tag '"' and a two-byte one under 'c' (after padding bytes 0), following a 2-byte version header.
 */
function heldOneByte(text: string): boolean {
  const bytes = serialize(text);
  let i = 2;
  while (bytes[i] === 0) i++;
  return bytes[i] === 0x22;
}

describe("oneByte", () => {
  // Cut out of text with a wider character, as a YAML parser cuts keys out of the spec's source.
  const twoByteAscii = "京东 RateLimit-Remaining".slice(3);

  it("holds what V8 gives it two bytes per character one byte per character, unchanged", () => {
    expect(heldOneByte(twoByteAscii)).toBe(false);
    expect(oneByte(twoByteAscii)).toBe("RateLimit-Remaining");
    expect(heldOneByte(oneByte(twoByteAscii))).toBe(true);
  });

  it("keeps Latin-1 text whole and returns wider text as it is", () => {
    expect(oneByte("café ÿ")).toBe("café ÿ");
    expect(heldOneByte(oneByte("é".repeat(20).concat("京").slice(0, 20)))).toBe(true);
    expect(oneByte("线报")).toBe("线报");
  });
});

describe("API responder: header strings", () => {
  let built: BuiltApp;
  let overSocket: Transport;
  const written: unknown[][] = [];

  beforeAll(async () => {
    built = await testApp({ rateLimit: { limit: 5, windowSeconds: 60 } });
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = built.app.server.address() as AddressInfo;
    overSocket = socketTransport(`http://127.0.0.1:${port}`);
    const writeHead = ServerResponse.prototype.writeHead;
    vi.spyOn(ServerResponse.prototype, "writeHead").mockImplementation(function (
      this: ServerResponse,
      ...args: Parameters<ServerResponse["writeHead"]>
    ) {
      if (Array.isArray(args[1])) written.push(args[1]);
      return writeHead.apply(this, args);
    });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await built?.close();
  });

  it("hands Node only one-byte names and values", async () => {
    const meta = "/api/v1/meta";
    expect((await overSocket(meta)).status).toBe(200);
    expect((await overSocket(meta)).status).toBe(200);
    const compressed = await overSocket(meta, { headers: { "accept-encoding": "gzip" } });
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect((await overSocket("/rss.php")).status).toBe(200);
    const own = await overSocket(`/api/v1/my/follow?uid=${built.demo?.uid}`, {
      headers: { "x-api-key": DEMO_KEY },
    });
    expect(own.status).toBe(200);
    expect((await overSocket(meta)).status).toBe(429);
    expect(written).toHaveLength(6);
    const strings = written.flat().filter((v): v is string => typeof v === "string");
    expect(strings).toEqual(expect.arrayContaining(["RateLimit-Limit", "Vary", "Retry-After"]));
    expect(strings.filter((s) => !heldOneByte(s))).toEqual([]);
  });
});
