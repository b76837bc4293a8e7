/** Which client a request is counted under (x-rate-limit client_ip), behind a trusted proxy or not. */
import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip.ts";

const proxy = new Set(["10.0.0.1", "10.0.0.2"]);

describe("clientIp", () => {
  it("is the socket address unless the peer is a trusted proxy (a client cannot forge it)", () => {
    expect(clientIp("::ffff:203.0.113.9", "1.2.3.4", proxy)).toBe("203.0.113.9");
    expect(clientIp("10.0.0.1", undefined, proxy)).toBe("10.0.0.1");
  });

  it("reads X-Forwarded-For from the right, skipping trusted proxies", () => {
    expect(clientIp("10.0.0.1", "6.6.6.6, 203.0.113.9", proxy)).toBe("203.0.113.9");
    expect(clientIp("10.0.0.1", ["6.6.6.6, 203.0.113.9", "10.0.0.2"], proxy)).toBe("203.0.113.9");
    expect(clientIp("10.0.0.1", "10.0.0.2", proxy)).toBe("10.0.0.2");
    // Every hop trusted: the left-most proxy is the client (its own request, relayed).
    expect(clientIp("10.0.0.1", "10.0.0.2, 10.0.0.1", proxy)).toBe("10.0.0.2");
  });

  it("takes the address of a hop written with a port", () => {
    expect(clientIp("10.0.0.1", "1.1.1.1:5555", proxy)).toBe("1.1.1.1");
    expect(clientIp("10.0.0.1", "[2001:db8::1]:443", proxy)).toBe("2001:db8::1");
    expect(clientIp("10.0.0.1", "[::ffff:1.1.1.1]", proxy)).toBe("1.1.1.1");
  });

  it("counts a hop that is no address under its own text, never in the proxy's bucket", () => {
    expect(clientIp("10.0.0.1", "abc", proxy)).toBe("x-forwarded-for:abc");
    expect(clientIp("10.0.0.1", "", proxy)).toBe("x-forwarded-for:");
    expect(clientIp("10.0.0.1", " , ", proxy)).toBe("x-forwarded-for:");
    expect(clientIp("10.0.0.1", "1.2.3.4, unknown", proxy)).toBe("x-forwarded-for:unknown");
    expect(clientIp("10.0.0.1", "x".repeat(5000), proxy)).toHaveLength("x-forwarded-for:".length + 64);
  });
});
