import { describe, expect, it } from "vitest";
import { cacheEvidence, directives, storageEvidence } from "./cache-evidence.ts";

describe("cacheEvidence: a cache answered from its storage", () => {
  it.each([
    ["Age of a second or more", { age: "7" }, ["Age: 7"]],
    ["Age 0 (a cache passed it on fresh)", { age: "0" }, []],
    ["nginx's $upstream_cache_status", { "x-cache-status": "HIT" }, ["x-cache-status: HIT"]],
    ["a miss", { "x-cache-status": "MISS", "x-cache": "MISS from edge" }, []],
    ["Varnish or Squid", { "x-cache": "HIT from cache.example" }, ["x-cache: HIT from cache.example"]],
    ["Cloudflare serving stale", { "cf-cache-status": "STALE" }, ["cf-cache-status: STALE"]],
    [
      "RFC 9211 Cache-Status",
      { "cache-status": "ExampleCache; hit; ttl=30" },
      ["Cache-Status: ExampleCache; hit; ttl=30"],
    ],
    ["RFC 9211 forwarded", { "cache-status": "ExampleCache; fwd=miss" }, []],
    ["nothing", {}, []],
  ])("%s", (_what, headers: Record<string, string>, want) => {
    expect(cacheEvidence(headers)).toEqual(want);
  });
});

describe("directives of Cache-Control", () => {
  it("reads names and values, lower-cased, quotes dropped", () => {
    expect([...directives('Private, NO-STORE, max-age="0"')]).toEqual(["private", "no-store", "max-age=0"]);
    expect([...directives(undefined)]).toEqual([]);
  });
});

describe("storageEvidence: a cache's headers, or the earlier answer repeated", () => {
  it.each([
    ["a cache's header", { headers: { age: "4" } }, ["Age: 4"]],
    [
      "a replayed answer",
      { headers: {}, replayed: "the Date (D1) … 3 s before" },
      ["it repeats the Date (D1) … 3 s before"],
    ],
    ["a fresh answer", { headers: { age: "0" } }, []],
  ])("%s", (_what, e: { headers: Record<string, string>; replayed?: string }, want) => {
    expect(storageEvidence(e)).toEqual(want);
  });
});
