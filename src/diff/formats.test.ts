import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SPEC_PATH } from "../spec/paths.ts";
import { format } from "./format/index.ts";
import { failsOn } from "./gate.ts";
import { diffEdit, get, param, schema, spec, without } from "./testing.ts";
import { lineMapper } from "./yaml-lines.ts";

const text = readFileSync(SPEC_PATH, "utf8");
/** The spec's own version: base and head of these edits share it, so the summary names it twice. */
const version: string = spec().info.version;
const lineOf = (needle: string, after = 0) =>
  text.split("\n").findIndex((l, i) => i >= after && l.includes(needle)) + 1;

/** One breaking, one warning and one info finding. */
const mixed = () =>
  diffEdit((d) => {
    param(d, "RankLimit").schema.maximum = 200;
    get(d, "/api/v1/rank").responses["404"] = { description: "Nothing here." };
    schema(d, "Alert").properties.hot = { type: "boolean" };
  });

describe("formats", () => {
  it("text: one line per finding, then the summary line", async () => {
    const lines = format(await mixed(), "text").split("\n");
    expect(lines[0]).toBe(
      "BREAKING request-bound-narrowed GET /api/v1/rank (query limit) #/components/parameters/RankLimit/schema/maximum: query limit: maximum 300 → 200",
    );
    expect(lines[1]).toMatch(/^WARNING response-status-added GET \/api\/v1\/rank /);
    expect(lines.at(-1)).toBe("1 breaking, 1 warnings, 6 info");
  });

  it("json: stable and machine-readable", async () => {
    const parsed = JSON.parse(format(await mixed(), "json"));
    expect(Object.keys(parsed)).toEqual(["mode", "base", "head", "summary", "findings"]);
    expect(parsed.summary).toEqual({ breaking: 1, warning: 1, info: 6 });
    expect(parsed.findings[0]).toEqual({
      rule: "request-bound-narrowed",
      level: "breaking",
      location: {
        operation: "GET /api/v1/rank",
        parameter: "query limit",
        pointer: "/components/parameters/RankLimit/schema/maximum",
        in: "head",
      },
      message: "query limit: maximum 300 → 200",
    });
  });

  it("markdown: verdict, summary table, sections, info collapsed", async () => {
    const md = format(await mixed(), "markdown");
    expect(md).toContain("## dealkit diff: ❌ 1 breaking finding\n");
    expect(md).toContain("| 🔴 Breaking | 1 |");
    expect(md).toContain("### 🔴 Breaking (1)");
    expect(md).toContain("### 🟡 Warning (1)");
    expect(md).toContain("<details><summary>🔵 Info (6)</summary>");
    expect(md).toContain("data[]&lt;Alert&gt;.hot added");
  });

  // One row once held six operations beside three messages, none saying which went with which.
  it.each([
    [
      "a removed Alert field, reached as data[], data[]<Alert> and body[]",
      {
        given: (d: ReturnType<typeof spec>) => {
          delete schema(d, "Alert").properties.louzhuregtime;
          schema(d, "Alert").required = without(schema(d, "Alert").required ?? [], "louzhuregtime");
        },
        want: [
          {
            operations: [
              "GET /api/v1/rank",
              "GET /api/v1/search",
              "GET /api/v1/my/follow",
              "GET /api/v1/my/push",
            ],
            change: "200 application/json body data[].louzhuregtime removed",
          },
          {
            operations: ["GET /api/v1/feed"],
            change: "200 application/json body data[]&lt;Alert&gt;.louzhuregtime removed",
          },
          {
            operations: ["GET /plus/json/rank/{act}.json"],
            change: "200 application/json body[].louzhuregtime removed",
          },
        ],
      },
    ],
  ])("markdown: one row per message, beside the operations it is about: %s", async (_, { given, want }) => {
    const rows = format(await diffEdit(given), "markdown")
      .split("\n")
      .filter((l) => l.startsWith("| `response-field-removed`"))
      .map((row) => {
        const [, where, change] = row.slice(2, -2).split(" | ");
        return { operations: where?.match(/(?<=`)[A-Z]+ [^`]+(?=`)/g), change };
      });
    expect(rows).toEqual(want);
  });

  it("github: workflow commands with file and line", async () => {
    const out = format(await mixed(), "github", { path: "openapi/openapi.yaml", text }).split("\n");
    const line = lineOf("schema: { type: integer, minimum: 1, maximum: 300", lineOf("RankLimit:"));
    expect(out[0]).toBe(
      `::error file=openapi/openapi.yaml,line=${line},title=request-bound-narrowed::GET /api/v1/rank (query limit): query limit: maximum 300 → 200`,
    );
    expect(out[1]).toMatch(/^::warning file=openapi\/openapi.yaml,line=\d+,title=response-status-added::/);
    expect(out[2]).toMatch(/^::notice /);
    expect(out.at(-1)).toBe(
      `::notice title=dealkit diff::1 breaking, 1 warnings, 6 info (same-major: ${version} → ${version})`,
    );
  });
});

describe("line mapping", () => {
  const line = lineMapper(text);
  it.each([
    ["/x-rate-limit/limit", "  limit: 60"],
    ["/components/schemas/Alert", "    Alert:"],
    ["/paths/~1api~1v1~1rank/get/x-conformance/0", "        - id: rank-content-omitted"],
  ])("%s", (pointer, needle) => {
    expect(line(pointer)).toBe(lineOf(needle));
  });

  it("maps a removed node to its nearest ancestor", () => {
    expect(line("/components/schemas/Alert/properties/gone")).toBe(
      lineOf("properties:", lineOf("    Alert:")),
    );
  });
});

describe("gate", () => {
  it.each([
    ["breaking", [true, false, false]],
    ["warning", [true, true, false]],
    ["never", [false, false, false]],
  ] as const)("--fail-on %s", async (failOn, want) => {
    const results = await Promise.all([
      diffEdit((d) => {
        param(d, "RankLimit").schema.maximum = 200;
      }),
      diffEdit((d) => {
        get(d, "/api/v1/rank").responses["404"] = { description: "Nothing here." };
      }),
      diffEdit((d) => {
        param(d, "RankLimit").schema.maximum = 500;
      }),
    ]);
    expect(results.map((r) => failsOn(r, failOn))).toEqual(want);
  });
});
