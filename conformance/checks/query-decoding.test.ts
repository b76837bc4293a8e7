/** query-decoding on synthetic answers: an undecodable query refused as the spec says, or not. */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { readRequest } from "../../src/spec/request.ts";
import type { CheckContext, Exchange } from "../types.ts";
import { invalidInputsRejected } from "./invalid-inputs-rejected.ts";
import { queryDecoding } from "./query-decoding.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };

function answer(
  query: string,
  status: number,
  body: unknown,
  mediaType = "application/problem+json",
): Exchange {
  const op = spec.operation("searchAlerts");
  return {
    request: {
      method: "GET",
      operationId: op.operationId,
      pathname: op.path,
      query: [],
      rawQuery: query,
      headers: {},
      label: "t",
    },
    url: `http://t${op.path}?${query}`,
    operation: op,
    parsed: readRequest(spec, op, query),
    status,
    headers: {},
    mediaType,
    text: JSON.stringify(body),
    body,
    sentAt: 1,
    receivedAt: 2,
  };
}

const refusal = (...names: string[]) => ({
  type: "/problems/invalid-parameter",
  status: 400,
  errors: names.map((name) => ({ in: "query", name, reason: "x" })),
});

describe("query-decoding", () => {
  it.each([
    ["a 400 naming q", answer("q=%zz", 400, refusal("q")), []],
    ["a cut UTF-8 sequence refused", answer("q=%E5%88", 400, refusal("q")), []],
    ["served as if literal", answer("q=%zz", 200, { data: [] }, "application/json"), ["query-decoding"]],
    [
      "a 400 naming another parameter",
      answer("q=%E5%88&limit=0", 400, refusal("limit")),
      ["query-decoding/problem"],
    ],
    [
      "a 400 of another type",
      answer("q=%zz", 400, { ...refusal("q"), type: "/problems/malformed-request" }),
      ["query-decoding/problem"],
    ],
  ])("%s", (_name, e, want) => {
    expect(queryDecoding.informative?.(ctx, e)).toBe(true);
    expect(queryDecoding.judge?.(ctx, e)?.map((f) => f.code)).toEqual(want);
    // One defect, one check: invalid-inputs-rejected leaves undecodable queries alone.
    expect(invalidInputsRejected.judge?.(ctx, e)).toBeNull();
  });

  it("judges nothing when the query decodes (a + is a space)", () => {
    const e = answer("q=a+b", 200, { data: [] }, "application/json");
    expect(queryDecoding.judge?.(ctx, e)).toBeNull();
    expect(queryDecoding.informative?.(ctx, e)).toBe(false);
    expect(e.parsed?.raw.q).toBe("a b");
  });
});
