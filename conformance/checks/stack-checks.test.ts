/**
 * The checks of what a stack in front changes, on synthetic answers: content-encoding (the coding
 * against the offer, Vary, the decoding) and cache-control (x-caching per kind, answers a cache gave).
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { CheckContext, Exchange } from "../types.ts";
import { cacheControl } from "./cache-control.ts";
import { contentEncoding } from "./content-encoding.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };

function answer(
  operationId: string,
  status: number,
  headers: Record<string, string>,
  requestHeaders: Record<string, string> = {},
  failure?: Exchange["failure"],
): Exchange {
  const op = spec.operation(operationId);
  return {
    request: {
      method: "GET",
      operationId,
      pathname: op.path,
      query: [],
      headers: requestHeaders,
      label: "t",
    },
    url: `http://t${op.path}`,
    operation: op,
    parsed: parseRequest(spec, op, new URLSearchParams()),
    status,
    headers,
    mediaType: "application/json",
    text: "{}",
    body: {},
    sentAt: 1,
    receivedAt: 2,
    ...(failure ? { failure } : {}),
  };
}

const BROWSER = { "accept-encoding": "gzip, deflate, br" };
const codes = (e: Exchange) => contentEncoding.judge?.(ctx, e)?.map((f) => f.code);

describe("content-encoding", () => {
  it.each([
    ["identity to a browser", answer("getMeta", 200, {}, BROWSER), [], false],
    ["identity to curl", answer("getMeta", 200, {}), [], "identity"],
    [
      "gzip with Vary to a browser",
      answer("getMeta", 200, { "content-encoding": "gzip", vary: "Accept-Encoding" }, BROWSER),
      [],
      "compressed",
    ],
    [
      "x-gzip is gzip",
      answer("getMeta", 200, { "content-encoding": "x-gzip", vary: "*" }, BROWSER),
      [],
      "compressed",
    ],
    [
      "gzip to curl",
      answer("getMeta", 200, { "content-encoding": "gzip", vary: "Accept-Encoding" }),
      ["content-encoding/not-offered"],
      "compressed",
    ],
    [
      "zstd, not offered",
      answer("getMeta", 200, { "content-encoding": "zstd", vary: "Accept-Encoding" }, BROWSER),
      ["content-encoding/not-offered"],
      "compressed",
    ],
    [
      "br refused with q=0",
      answer(
        "getMeta",
        200,
        { "content-encoding": "br", vary: "Accept-Encoding" },
        { "accept-encoding": "gzip, br;q=0" },
      ),
      ["content-encoding/not-offered"],
      "compressed",
    ],
    [
      "gzip without Vary",
      answer("getMeta", 200, { "content-encoding": "gzip" }, BROWSER),
      ["content-encoding/no-vary"],
      "compressed",
    ],
    [
      "a body that does not decode",
      answer("getMeta", 200, { "content-encoding": "gzip", vary: "Accept-Encoding" }, BROWSER, {
        kind: "undecodable",
        message: "cut short",
      }),
      ["content-encoding/undecodable"],
      "compressed",
    ],
  ])("%s", (_what, e, want, evidence) => {
    expect(codes(e)).toEqual(want);
    expect(contentEncoding.informative?.(ctx, e)).toBe(evidence);
  });

  it("a transport failure other than decoding is answers-complete's", () => {
    expect(codes(answer("getMeta", 0, {}, BROWSER, { kind: "reset", message: "reset" }))).toBeUndefined();
  });
});

describe("cache-control", () => {
  const judge = (e: Exchange) => cacheControl.judge?.(ctx, e)?.map((f) => f.code);
  it.each([
    ["public, no-cache", answer("getRank", 200, { "cache-control": "no-cache" }), []],
    [
      "public, no-store also keeps caches out",
      answer("getRank", 400, { "cache-control": "no-store, max-age=0" }),
      [],
    ],
    [
      "public, cacheable",
      answer("getRank", 200, { "cache-control": "public, max-age=60" }),
      ["cache-control/public"],
    ],
    ["public, none", answer("getFeed", 200, {}), ["cache-control/public"]],
    [
      "personal 200, private, no-store",
      answer("getMyFollowHits", 200, { "cache-control": "private, no-store" }),
      [],
    ],
    [
      "personal 401, no-cache only",
      answer("getMyPushHits", 401, { "cache-control": "no-cache" }),
      ["cache-control/personal"],
    ],
    ["429, no-store", answer("getRank", 429, { "cache-control": "no-store" }), []],
    [
      "429, no-cache",
      answer("getRank", 429, { "cache-control": "no-cache" }),
      ["cache-control/rate-limited"],
    ],
    [
      "from a cache's storage",
      answer("getRank", 200, { "cache-control": "no-cache", age: "12" }),
      ["cache-control/from-cache"],
    ],
  ])("%s", (_what, e, want) => {
    expect(judge(e)).toEqual(want);
  });
});
