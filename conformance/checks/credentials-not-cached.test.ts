/**
 * Who gave a personal stream to a request without the owner's key, from the two answers alone: a
 * cache replays the owner's (its header, or the owner's Date, RateLimit-Remaining and body), the
 * API answers afresh (its own Remaining or Date, another body, no cache header), or it cannot be told.
 */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../types.ts";
import { whoAnswered } from "./credentials-not-cached.ts";

const answer = (headers: Record<string, string>, text = '{"data":[1]}'): Exchange => ({
  request: { method: "GET", pathname: "/api/v1/my/follow", query: [["uid", "1"]], headers: {}, label: "t" },
  url: "http://t/api/v1/my/follow?uid=1",
  status: 200,
  headers,
  text,
  body: JSON.parse(text),
  sentAt: 1,
  receivedAt: 1.1,
});

const OWNER = answer({ date: "D1", "ratelimit-remaining": "57" });

describe("whoAnswered: a cache, the API, or unknown", () => {
  it.each([
    [
      "the API ignoring the key: another body, its own Date and RateLimit-Remaining, no cache header",
      answer({ date: "D2", "ratelimit-remaining": "56" }, '{"data":[]}'),
      "application",
      [
        "a body other than the owner's",
        "its own Date (D2; the owner's D1)",
        "its own RateLimit-Remaining (56; the owner's 57): the API counted it",
        "no Age, X-Cache or Cache-Status",
      ],
    ],
    [
      "the API ignoring the key within the same second: the same body and Date, but counted",
      answer({ date: "D1", "ratelimit-remaining": "56" }),
      "application",
      [
        "its own RateLimit-Remaining (56; the owner's 57): the API counted it",
        "no Age, X-Cache or Cache-Status",
      ],
    ],
    [
      "a cache that says nothing of itself: the owner's Date, Remaining and body",
      answer({ date: "D1", "ratelimit-remaining": "57" }),
      "cache",
      ["the owner's Date (D1)", "the owner's RateLimit-Remaining (57)", "the owner's body, byte for byte"],
    ],
    [
      "a cache that says HIT",
      answer({ date: "D1", "ratelimit-remaining": "57", "x-cache": "HIT from edge" }),
      "cache",
      ["x-cache: HIT from edge", "the owner's body, byte for byte"],
    ],
    [
      "no RateLimit-Remaining, the same Date and body: cannot be told",
      answer({ date: "D1" }),
      "unknown",
      [
        "the owner's body, byte for byte",
        "the owner's Date (D1)",
        "no Age, X-Cache or Cache-Status",
        "no RateLimit-Remaining to tell a counted answer from a replayed one",
      ],
    ],
  ])("%s", (_what, later, by, evidence) => {
    expect(whoAnswered(OWNER, later)).toEqual({ by, evidence });
  });
});
