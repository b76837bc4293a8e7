import { describe, expect, it } from "vitest";
import type { Exchange } from "../types.ts";
import { discover, looksLikeTheApi, repeatedPathPrefix } from "./discover.ts";

const answer = (status: number, mediaType: string | undefined, body: unknown, headers = {}): Exchange => ({
  request: { method: "GET", pathname: "/api/v1/meta", query: [], headers: {}, label: "discovery" },
  url: "http://x/api/v1/meta",
  status,
  headers,
  ...(mediaType ? { mediaType } : {}),
  text: typeof body === "string" ? body : JSON.stringify(body),
  body,
  sentAt: 0,
  receivedAt: 0,
});

/** Discovery tells this API from anything else by answers only it gives. */
describe("looksLikeTheApi", () => {
  it.each<[string, Exchange, boolean]>([
    ["the JSON envelope", answer(200, "application/json", { data: {}, meta: {} }), true],
    [
      "a problem body",
      answer(404, "application/problem+json", {
        type: "/problems/not-found",
        title: "Not found",
        status: 404,
      }),
      true,
    ],
    ["a 429 with Retry-After", answer(429, "text/plain", "slow down", { "retry-after": "5" }), true],
    ["an HTML page", answer(200, "text/html", "<!doctype html><h1>Shop</h1>"), false],
    ["a 404 text", answer(404, "text/plain", "Not Found"), false],
    ["JSON without the envelope", answer(200, "application/json", { status: "ok" }), false],
    ["a bare array", answer(200, "application/json", [1, 2]), false],
    [
      "no whole answer",
      {
        ...answer(0, undefined, ""),
        failure: { kind: "timeout", message: "no whole answer within 10000 ms" },
      },
      false,
    ],
  ])("%s: %s", (_name, exchange, want) => {
    expect(looksLikeTheApi(exchange)).toBe(want);
  });
});

const SPEC_PATHS = ["/api/v1/meta", "/api/v1/rank", "/rss.php", "/plus/json/rank/{act}.json"];

/** A base URL that repeats the start of the spec's paths is stopped before anything is sent, with the fix. */
describe("repeatedPathPrefix", () => {
  it.each<[string, { given: string; want: string | undefined }]>([
    [
      "the version prefix",
      {
        given: "http://127.0.0.1:8080/api/v1",
        want: "--base-url http://127.0.0.1:8080/api/v1 ends with /api/v1, which the spec's paths already carry (/api/v1/meta): every request would go to /api/v1/api/v1/meta. Use --base-url http://127.0.0.1:8080",
      },
    ],
    [
      "with a trailing slash",
      {
        given: "http://h/api/v1/",
        want: "--base-url http://h/api/v1/ ends with /api/v1, which the spec's paths already carry (/api/v1/meta): every request would go to /api/v1/api/v1/meta. Use --base-url http://h",
      },
    ],
    [
      "/api alone, under a mount point",
      {
        given: "https://example.com/deals/api",
        want: "--base-url https://example.com/deals/api ends with /api, which the spec's paths already carry (/api/v1/meta): every request would go to /api/api/v1/meta. Use --base-url https://example.com/deals",
      },
    ],
    ["no path", { given: "http://127.0.0.1:8080", want: undefined }],
    ["a mount point of its own", { given: "https://example.com/deals", want: undefined }],
    ["a path that only looks alike", { given: "https://example.com/apis", want: undefined }],
  ])("%s", (_, { given, want }) => {
    expect(repeatedPathPrefix(given, SPEC_PATHS)).toBe(want);
  });
});

describe("discover", () => {
  // Regression: 404 problem bodies looked like the API, and 62 findings with no cause followed.
  it("stops when every discovery request got 404, problem bodies or not", async () => {
    const notFound = answer(404, "application/problem+json", {
      type: "/problems/not-found",
      title: "Not found",
      status: 404,
    });
    const found = await discover(async (request) => ({ ...notFound, request }));
    expect(found.stop).toMatch(
      /^not found: every discovery request got 404, so the API is not at this base URL/,
    );
  });
});
