import { describe, expect, it } from "vitest";
import { diffDocuments } from "./diff.ts";
import { type Doc, diffEdit, get, rulesOf, schema, spec, TODAY } from "./testing.ts";
import { addMonths, detectMode } from "./versioning.ts";

type Case = [string, { given: (d: Doc) => void; successor?: string; want: string[] }];

/** Within v1: removing a v1 path, or announcing v1's end, depends on v2's age (6 months). */
// biome-ignore format: a table reads best one case per line
const sameMajor: Case[] = [
  ["v1 path removed, no v2", { given: (d) => delete d.paths["/api/v1/rank"], want: ["path-removed"] }],
  ["v1 path removed, v2 less than 6 months old", { given: (d) => delete d.paths["/api/v1/rank"], successor: "2026-10-01", want: ["v1-path-removed-before-support-ends"] }],
  ["v1 path removed, v2 6 months old", { given: (d) => delete d.paths["/api/v1/rank"], successor: "2026-05-25", want: ["v1-path-retired"] }],
  ["v1 path removed, date recorded in x-versioning", { given: (d) => { delete d.paths["/api/v1/rank"]; d["x-versioning"].successor_published = "2026-10-01"; }, want: ["documentation-changed", "v1-path-removed-before-support-ends"] }],
  ["Deprecation header announced, v2 too young", { given: (d) => { get(d, "/api/v1/rank").responses["200"].headers.Deprecation = { schema: { type: "string" } }; }, successor: "2026-10-01", want: ["deprecation-announced-too-early", "response-header-added"] }],
  ["Deprecation header announced, no v2", { given: (d) => { get(d, "/api/v1/rank").responses["200"].headers.Sunset = { schema: { type: "string" } }; }, want: ["deprecation-announced-too-early", "response-header-added"] }],
  ["Deprecation header announced after 6 months", { given: (d) => { get(d, "/api/v1/rank").responses["200"].headers.Deprecation = { schema: { type: "string" } }; }, successor: "2026-04-01", want: ["response-header-added"] }],
  ["sunset date too early", { given: (d) => { d["x-versioning"].sunset = "2027-01-01"; }, successor: "2026-10-01", want: ["documentation-changed", "sunset-too-early"] }],
  ["sunset date 6 months after v2", { given: (d) => { d["x-versioning"].sunset = "2027-04-01"; }, successor: "2026-10-01", want: ["documentation-changed"] }],
  ["operation sunset too early", { given: (d) => { get(d, "/api/v1/feed")["x-sunset"] = "2026-12-31"; }, successor: "2026-10-01", want: ["operation-deprecated", "sunset-too-early"] }],
  ["legacy operation announces its own end", { given: (d) => { get(d, "/plus/json/rank/{act}.json").responses["200"].headers.Sunset = { schema: { type: "string" } }; }, want: ["response-header-added"] }],
  ["operation deprecated only", { given: (d) => { get(d, "/plus/json/rank/{act}.json").deprecated = true; }, want: ["operation-deprecated"] }],
];

describe("same major", () => {
  it.each(sameMajor)("%s", async (_, { given, successor, want }) => {
    expect(rulesOf(await diffEdit(given, { successorPublished: successor }))).toEqual([...want].sort());
  });

  it("detects the mode from info.version or the /api/v1 prefix", () => {
    const v1 = spec();
    const minor = { ...spec(), info: { ...v1.info, version: "1.4.0" } };
    expect(detectMode(v1, minor)).toBe("same-major");
    expect(detectMode(v1, { ...v1, info: { ...v1.info, version: "2.0.0" } })).toBe("same-major");
    expect(detectMode(v1, v2())).toBe("cross-major");
  });

  it("adds months on the calendar", () => {
    expect(addMonths("2026-05-25", 6)).toBe("2026-11-25");
    expect(addMonths("2026-10-01", 6)).toBe("2027-04-01");
  });
});

/** The v1 document moved under /api/v2 as v2.0.0, published on `published`. */
function v2(published?: string): Doc {
  const d = spec();
  d.info.version = "2.0.0";
  d.paths = Object.fromEntries(
    Object.entries(d.paths).map(([p, item]) => [p.replace(/^\/api\/v1\//, "/api/v2/"), item]),
  );
  delete d.paths["/rss.php"];
  delete d.paths["/plus/json/rank/{act}.json"];
  Object.assign(d["x-versioning"], {
    current: "v2",
    path_prefix: "/api/v2",
    successor_path_prefix: "/api/v3",
  });
  if (published) d["x-versioning"].published = published;
  return d;
}

const cross = (base: Doc, head: Doc, successorPublished?: string) =>
  diffDocuments(
    { label: "v1.yaml", raw: base },
    { label: "v2.yaml", raw: head },
    { today: TODAY, successorPublished },
  );

describe("across majors", () => {
  it("turns changes into migration notes and passes the versioning checks", async () => {
    const head = v2("2026-11-01");
    delete schema(head, "Alert").properties.louzhuregtime;
    schema(head, "Alert").required = schema(head, "Alert").required.filter(
      (f: string) => f !== "louzhuregtime",
    );
    const r = await cross(spec(), head);
    expect(r.mode).toBe("cross-major");
    expect(r.summary.breaking).toBe(0);
    const removed = r.findings.find((f) => f.rule === "response-field-removed");
    expect(removed).toMatchObject({
      level: "info",
      migration: { impact: "breaking", advice: "Stop reading it." },
    });
    expect(removed?.location.operation).toBe("GET /api/v1/rank");
    const moved = r.findings.find((f) => f.location.successor === "GET /api/v2/rank");
    expect(moved).toBeDefined();
    expect(rulesOf(r)).toContain("operation-not-in-successor");
  });

  it("follows a path renamed in v2 by its operationId", async () => {
    const head = v2("2026-11-01");
    head.paths["/api/v2/activities"] = head.paths["/api/v2/shenghuo"];
    delete head.paths["/api/v2/shenghuo"];
    const r = await cross(spec(), head);
    expect(
      r.findings.filter((f) => f.location.successor === "GET /api/v2/activities").length,
    ).toBeGreaterThan(0);
    expect(r.findings.some((f) => f.location.operation === "/api/v1/shenghuo")).toBe(false);
  });

  it("requires every v2 path under /api/v2", async () => {
    const head = v2("2026-11-01");
    head.paths["/rss.php"] = spec().paths["/rss.php"];
    const r = await cross(spec(), head);
    expect(
      r.findings.filter((f) => f.level === "breaking").map((f) => [f.rule, f.location.operation]),
    ).toEqual([["v2-path-outside-prefix", "/rss.php"]]);
  });

  it("checks v1's sunset against v2's publication date", async () => {
    const base = spec();
    base["x-versioning"].sunset = "2027-02-01";
    const r = await cross(base, v2("2026-11-01"));
    expect(r.findings.filter((f) => f.level === "breaking").map((f) => f.rule)).toEqual(["sunset-too-early"]);
    const late = await cross(base, v2("2026-08-01"));
    expect(late.summary.breaking).toBe(0);
  });

  it("reads v2's date from info.x-published or the command line, and warns when it is unknown", async () => {
    const fromInfo = v2();
    fromInfo.info["x-published"] = "2026-11-01";
    expect(rulesOf(await cross(spec(), fromInfo))).not.toContain("successor-date-unknown");
    expect(rulesOf(await cross(spec(), v2(), "2026-11-01"))).not.toContain("successor-date-unknown");
    const unknown = await cross(spec(), v2());
    expect(unknown.findings.filter((f) => !f.migration).map((f) => f.rule)).toEqual([
      "successor-date-unknown",
    ]);
  });
});
