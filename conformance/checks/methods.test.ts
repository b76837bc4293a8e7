/** head-as-get and options-answered on synthetic answers: what each finds, and what is no evidence. */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { CheckContext, Exchange, RequestCase, SentGroup } from "../types.ts";
import { headAsGet } from "./head-as-get.ts";
import { optionsAnswered, UNKNOWN_PATH } from "./options-answered.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };

const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-cache",
  "access-control-allow-origin": "*",
  "ratelimit-limit": "60",
  "ratelimit-remaining": "40",
  "ratelimit-reset": "3",
};

function exchange(
  method: RequestCase["method"],
  pathname: string,
  status: number,
  headers: Record<string, string>,
  requestHeaders: Record<string, string> = {},
): Exchange {
  const type = headers["content-type"]?.split(";")[0];
  return {
    request: { method, pathname, query: [], headers: requestHeaders, label: "t" },
    url: `http://t${pathname}`,
    status,
    headers,
    ...(type ? { mediaType: type } : {}),
    text: "",
    body: "",
    sentAt: 1,
    receivedAt: 2,
  };
}

const pair = (get: Exchange, head: Exchange): SentGroup => ({
  planned: { check: "head-as-get", kind: "set", requests: [get.request, head.request], label: "t" },
  exchanges: [get, head],
});
const headCodes = (group: SentGroup) => headAsGet.judgeGroup?.(ctx, group);

describe("head-as-get", () => {
  const get = exchange("GET", "/api/v1/meta", 200, JSON_HEADERS);
  it.each([
    ["the same status and headers", exchange("HEAD", "/api/v1/meta", 200, JSON_HEADERS), []],
    ["a 405 to HEAD", exchange("HEAD", "/api/v1/meta", 405, JSON_HEADERS), ["head-as-get/status"]],
    [
      "another Content-Type",
      exchange("HEAD", "/api/v1/meta", 200, { ...JSON_HEADERS, "content-type": "text/html" }),
      ["head-as-get/content-type"],
    ],
    [
      "RateLimit-* missing",
      exchange("HEAD", "/api/v1/meta", 200, {
        "content-type": "application/json",
        "cache-control": "no-cache",
        "access-control-allow-origin": "*",
      }),
      ["head-as-get/headers"],
    ],
  ])("%s", (_name, head, want) => {
    const verdict = headCodes(pair(get, head));
    expect(verdict?.informative).toBe(true);
    expect(verdict?.findings.map((f) => f.finding.code)).toEqual(want);
  });

  it("is no evidence when the limiter refused one of the pair", () => {
    const verdict = headCodes(pair(get, exchange("HEAD", "/api/v1/meta", 429, JSON_HEADERS)));
    expect(verdict).toMatchObject({ findings: [], informative: false });
  });
});

describe("options-answered", () => {
  const judge = (e: Exchange) => optionsAnswered.judge?.(ctx, e)?.map((f) => f.code);
  const PROBLEM = { "content-type": "application/problem+json" };
  it.each([
    ["204 with Allow", exchange("OPTIONS", "/api/v1/meta", 204, { allow: "GET, HEAD, OPTIONS" }), []],
    [
      "Allow in another order and case",
      exchange("OPTIONS", "/api/v1/meta", 204, { allow: "options,head,get" }),
      [],
    ],
    [
      "405 to a plain OPTIONS",
      exchange("OPTIONS", "/api/v1/meta", 405, PROBLEM),
      ["options-answered/status"],
    ],
    [
      "Allow without HEAD",
      exchange("OPTIONS", "/api/v1/meta", 204, { allow: "GET, OPTIONS" }),
      ["options-answered/allow"],
    ],
    ["404 problem on an unknown path", exchange("OPTIONS", UNKNOWN_PATH, 404, PROBLEM), []],
    [
      "204 on an unknown path",
      exchange("OPTIONS", UNKNOWN_PATH, 204, { allow: "GET" }),
      ["options-answered/unknown-path"],
    ],
  ])("%s", (_name, e, want) => {
    expect(optionsAnswered.informative?.(ctx, e)).toBe(true);
    expect(judge(e)).toEqual(want);
  });

  it("leaves preflights to the cors check", () => {
    const preflight = exchange("OPTIONS", "/api/v1/meta", 405, PROBLEM, {
      "access-control-request-method": "GET",
    });
    expect(optionsAnswered.judge?.(ctx, preflight)).toBeNull();
    expect(optionsAnswered.informative?.(ctx, preflight)).toBe(false);
  });
});
