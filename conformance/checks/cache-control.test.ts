/**
 * The cache-control finding says what the answer is: a personal stream's own answer without
 * `private, no-store` could leak the account; a proxy's HTML error page in its place holds no
 * account's data, and is named for what it is.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { CheckContext, Exchange } from "../types.ts";
import { cacheControl } from "./cache-control.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };

function answer(status: number, headers: Record<string, string>): Exchange {
  const op = spec.operation("getMyFollowHits");
  const mediaType = headers["content-type"]?.split(";")[0];
  return {
    request: {
      method: "GET",
      operationId: op.operationId,
      pathname: op.path,
      query: [],
      headers: {},
      label: "t",
    },
    url: `http://t${op.path}`,
    operation: op,
    parsed: parseRequest(spec, op, new URLSearchParams()),
    status,
    headers,
    ...(mediaType ? { mediaType } : {}),
    text: "",
    body: "",
    sentAt: 1,
    receivedAt: 2,
  };
}

describe("cache-control on a personal stream", () => {
  it.each([
    [
      "the API's own 401 without private, no-store: a cache could serve the account's answer",
      answer(401, { "content-type": "application/problem+json" }),
      /serves this account's answer to anyone/,
    ],
    [
      "a proxy's HTML 403 page: named as such, no leak claimed",
      answer(403, { "content-type": "text/html", server: "nginx" }),
      /it is an HTML page \(Server: nginx, not the API's answer\)/,
    ],
    [
      "a proxy's HTML 404 page: named as such, no leak claimed",
      answer(404, { "content-type": "text/html; charset=utf-8" }),
      /it is an HTML page \(not the API's answer\)/,
    ],
  ])("%s", (_what, e, title) => {
    const found = cacheControl.judge?.(ctx, e) ?? [];
    expect(found.map((f) => f.code)).toEqual(["cache-control/personal"]);
    expect(found[0]?.title).toMatch(title);
    if (e.mediaType === "text/html") expect(found[0]?.title).not.toMatch(/account's answer/);
  });
});
