/** Curl lines go into published reports: the account's key must never be in them. */
import { describe, expect, it } from "vitest";
import { curlLine } from "./curl.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const at = (credentials: "valid" | "invalid", key: string) => ({
  url: "http://127.0.0.1:8080/api/v1/my/follow?uid=10001",
  request: {
    method: "GET" as const,
    pathname: "/api/v1/my/follow",
    query: [["uid", "10001"]] as [string, string][],
    headers: { "x-api-key": key, origin: "https://o.example" },
    credentials,
    label: "t",
  },
});

describe("curlLine", () => {
  it("reads a valid key from $DEALKIT_API_KEY instead of printing it", () => {
    const line = curlLine(at("valid", KEY));
    expect(line).not.toContain(KEY);
    expect(line).toBe(
      `curl -i -H "x-api-key: $DEALKIT_API_KEY" -H 'origin: https://o.example' 'http://127.0.0.1:8080/api/v1/my/follow?uid=10001'`,
    );
  });

  it("prints an invalid key, the suite's own invention, so the line sends what the run sent", () => {
    expect(curlLine(at("invalid", "f".repeat(32)))).toContain(`-H 'x-api-key: ${"f".repeat(32)}'`);
  });
});

describe("curlLine with the codings a browser offers", () => {
  it("asks curl to undo them (--compressed), sending the same Accept-Encoding", () => {
    const e = at("invalid", "x");
    e.request.headers = { "accept-encoding": "gzip, deflate, br" } as never;
    expect(curlLine(e)).toBe(
      "curl -i --compressed -H 'accept-encoding: gzip, deflate, br' 'http://127.0.0.1:8080/api/v1/my/follow?uid=10001'",
    );
  });
});
