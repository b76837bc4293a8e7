/** Curl lines go into published reports: the account's key must never be in them. */
import { describe, expect, it } from "vitest";
import { curlLine, reproduceScript } from "./curl.ts";

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

/** A burst request as the transport records it: its place in the window and the preflights before it. */
const burst = (windowIndex: number, preflightsBefore: number) => ({
  ...at("invalid", "x"),
  url: "http://127.0.0.1:8080/api/v1/meta",
  phase: "over-limit" as const,
  windowIndex,
  ...(preflightsBefore > 0 ? { preflightsBefore } : {}),
});

describe("reproduceScript", () => {
  // Regression: the first request of a window got `for i in $(seq 1 0)`, a loop that runs zero times.
  it.each([
    ["the first request of its window: no filling at all", { given: burst(0, 0), loops: 0, singles: 0 }],
    ["one request before it: that request, not a loop", { given: burst(1, 0), loops: 0, singles: 1 }],
    ["one preflight and no request before it", { given: burst(0, 1), loops: 0, singles: 1 }],
    ["60 requests and 2 preflights before it: one loop each", { given: burst(60, 2), loops: 2, singles: 0 }],
  ])("%s", (_name, { given, loops, singles }) => {
    const script = reproduceScript(given, "http://127.0.0.1:8080") ?? "";
    expect(script).not.toMatch(/seq 1 [01]\)/);
    expect(script.match(/^for i in \$\(seq 1 \d+\); do curl /gm) ?? []).toHaveLength(loops);
    expect(script.match(/^curl -s -o \/dev\/null /gm) ?? []).toHaveLength(singles);
    expect(script.split("\n").at(-1)).toBe(curlLine(given, true));
  });

  it("says what filled the window, in its first line", () => {
    expect(reproduceScript(burst(0, 0), "http://h")?.split("\n")[0]).toBe(
      "# the request that showed the finding, the first of one client address's rate window",
    );
    expect(reproduceScript(burst(1, 2), "http://h")?.split("\n")[0]).toBe(
      "# 1 request and the 2 preflights the run sent from one client address in its rate window, then the request that showed the finding",
    );
  });
});
