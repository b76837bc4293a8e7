import fc from "fast-check";
// parseRequest is the one reading of query strings shared by the server and the mock:
// these rows pin the conventions of the spec's info description.
import { describe, expect, it, vi } from "vitest";
import { loadSpec } from "./load.ts";
import {
  compileParameterChecks,
  decodeQueryBytes,
  decodeQueryPart,
  parseRequest,
  queryDecodingErrors,
} from "./request.ts";

const spec = await loadSpec();
const parse = (opId: string, query: string, pathParams?: Record<string, string>) =>
  parseRequest(spec, spec.operation(opId), new URLSearchParams(query), pathParams);

describe("parseRequest", () => {
  it.each([
    ["defaults applied", { given: ["getRank", "act=jintian"], want: { act: "jintian", limit: 20 } }],
    ["integers read", { given: ["getRank", "act=jintian&limit=300"], want: { act: "jintian", limit: 300 } }],
    [
      "empty value is absent",
      { given: ["getRank", "act=jintian&limit="], want: { act: "jintian", limit: 20 } },
    ],
    [
      "decimal prices",
      { given: ["searchAlerts", "mip=0.5&mxp=99.99"], want: { mip: 0.5, mxp: 99.99, limit: 20 } },
    ],
    ["category alias", { given: ["getFeed", "cate=weibo"], want: { cate: "weibo" } }],
    ["category ID", { given: ["getFeed", "cate=10"], want: { cate: "10" } }],
    [
      "unknown parameters ignored",
      { given: ["getFeed", "page=2&foo=bar"], want: { cate: "all", limit: 20 } },
    ],
  ] as const)("accepts: %s", (_name, { given: [opId, query], want }) => {
    const parsed = parse(opId, query);
    expect(parsed.errors).toEqual([]);
    expect(parsed.values).toMatchObject(want);
  });

  it.each([
    ["limit 0", ["getRank", "act=jintian&limit=0"], "limit", "must be >= 1"],
    ["limit max+1", ["getRank", "act=jintian&limit=301"], "limit", "must be <= 300"],
    ["limit not an integer", ["getRank", "act=jintian&limit=20.5"], "limit", "must be an integer"],
    ["limit with letters", ["getRank", "act=jintian&limit=2x"], "limit", "must be an integer"],
    ["missing act", ["getRank", "limit=5"], "act", "is required"],
    ["unknown act", ["getRank", "act=yixiaoshii"], "act", "must be one of yixiaoshi"],
    ["unknown cate", ["getFeed", "cate=taobao"], "cate", "must be one of all"],
    ["given twice", ["getFeed", "limit=1&limit=2"], "limit", "at most once"],
    ["negative price", ["searchAlerts", "mip=-1"], "mip", "must be >= 0"],
    ["price not a number", ["searchAlerts", "mip=1e3"], "mip", "must be a decimal number"],
    [
      "too many words",
      ["searchAlerts", `q=${Array.from({ length: 11 }, (_, i) => `w${i}`).join("|")}`],
      "q",
      "at most 10 words",
    ],
    ["word too long", ["searchAlerts", `q=${"长".repeat(51)}`], "q", "at most 50 characters"],
    ["q too long", ["searchAlerts", `q=${"a|".repeat(101)}`], "q", "must NOT have more than 200 characters"],
    ["with_cates not 0/1", ["listActivities", "with_cates=yes"], "with_cates", "must be one of 0, 1"],
    ["pageSize max+1", ["listActivities", "pageSize=101"], "pageSize", "must be <= 100"],
    ["uid missing", ["getMyFollowHits", ""], "uid", "is required"],
  ] as const)("rejects: %s", (_name, [opId, query], name, reason) => {
    const parsed = parse(opId, query);
    expect(parsed.errors).toEqual([
      expect.objectContaining({ in: "query", name, reason: expect.stringContaining(reason) }),
    ]);
  });

  it("keeps the raw value of a duplicated parameter, so rules do not read it as absent", () => {
    const parsed = parse("searchAlerts", "q=a&q=b");
    expect(parsed.raw.q).toBe("a");
    expect(parsed.values.q).toBeUndefined();
  });

  it("reads path parameters", () => {
    expect(parse("getLegacyRankFile", "", { act: "qitian" }).values).toEqual({ act: "qitian" });
    expect(parse("getLegacyRankFile", "", { act: "nope" }).errors).toEqual([
      expect.objectContaining({ in: "path", name: "act" }),
    ]);
  });
});

describe("query decoding (x-query-string.decoding)", () => {
  it.each([
    ["+ is a space", "a+b", "a b"],
    ["%2B is a plus sign", "a%2Bb", "a+b"],
    ["UTF-8 escapes", "%E5%88%B8", "券"],
    ["raw non-ASCII text", "券", "券"],
    ["a lone %", "100%", undefined],
    ["a bad escape", "%zz", undefined],
    ["a cut UTF-8 sequence", "%E5%88", undefined],
    ["a byte that is never UTF-8", "%FF", undefined],
    ["an escaped surrogate", "%ED%A0%80", undefined],
  ])("%s", (_name, part, want) => {
    expect(decodeQueryPart(part)).toBe(want);
  });

  it("reads an ASCII part (a request line's) as the byte-by-byte reference does", () => {
    const byteEscape = fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, "0")}`);
    const utf8 = fc.string({ unit: "binary", maxLength: 4 }).map(encodeURIComponent);
    const piece = fc.oneof(
      byteEscape,
      utf8,
      fc.constantFrom("%EF%BB%BF", "+", "%", "%2", "a", "=", "%ED%A0%80"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const part = pieces.join("");
        const spaced = part.replaceAll("+", " ");
        const want = /%(?![0-9A-Fa-f]{2})/.test(spaced) ? undefined : decodeQueryBytes(spaced);
        expect(decodeQueryPart(part)).toBe(want);
      }),
      { seed: 25, numRuns: 3000 },
    );
  });

  it("names each parameter that does not decode once, and `query` for a name that does not", () => {
    expect(queryDecodingErrors("q=%zz&q=%FF&limit=5&%E5=1&kp=a+b").map((e) => e.name)).toEqual([
      "q",
      "query",
    ]);
  });
});

describe("compileParameterChecks", () => {
  it("compiles the validator of every query and path parameter, so no request compiles one", () => {
    const compiled = new Set<unknown>();
    const spy = vi.spyOn(spec, "schemaValidator").mockImplementation((schema) => {
      compiled.add(schema);
      return (() => true) as never;
    });
    try {
      compileParameterChecks(spec);
    } finally {
      spy.mockRestore();
    }
    const checked = spec.operations.flatMap((op) => op.parameters.filter((p) => p.in !== "header"));
    expect(checked.length).toBeGreaterThan(10);
    for (const param of checked) expect(compiled.has(param.schema), param.name).toBe(true);
  });
});
