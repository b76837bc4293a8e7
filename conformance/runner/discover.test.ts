import { describe, expect, it } from "vitest";
import type { Exchange } from "../types.ts";
import { looksLikeTheApi } from "./discover.ts";

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
