/** What the bare node:http ceiling replays of the server's answer (bench/baseline-server.ts). */
import { describe, expect, it } from "vitest";
import { capture } from "./throughput.ts";

describe("throughput capture", () => {
  it("keeps the server's header lines as written and in order, without the lines Node writes itself", () => {
    const raw = [
      "Access-Control-Allow-Origin",
      "*",
      "Cache-Control",
      "no-cache",
      "RateLimit-Remaining",
      "999999999",
      "Content-Type",
      "application/json; charset=utf-8",
      "Vary",
      "Accept-Encoding",
      "Content-Length",
      "5",
      "Date",
      "Thu, 26 Nov 2026 22:04:33 GMT",
      "Connection",
      "keep-alive",
      "Keep-Alive",
      "timeout=72",
    ];
    const c = capture(raw, Buffer.from("hello"));
    expect(c.headers).toEqual([
      ["Access-Control-Allow-Origin", "*"],
      ["Cache-Control", "no-cache"],
      ["RateLimit-Remaining", "999999999"],
      ["Content-Type", "application/json; charset=utf-8"],
      ["Vary", "Accept-Encoding"],
      ["Content-Length", "5"],
    ]);
    expect(c.contentType).toBe("application/json; charset=utf-8");
    // The bare server's Keep-Alive line is then Node's own, with the server's timeout.
    expect(c.keepAliveMs).toBe(72_000);
    expect(Buffer.from(c.body, "base64").toString()).toBe("hello");
  });
});
