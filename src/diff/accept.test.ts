import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AcceptEntry } from "../accept/list.ts";
import { acceptChanges, readAcceptedChanges } from "./accept.ts";
import { failsOn } from "./gate.ts";
import { diffEdit, get, param, schema, TODAY, without } from "./testing.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-diff-accept-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const entry = (match: Record<string, string>, expires = "2026-12-31"): AcceptEntry => ({
  match,
  reason: "reviewed in OPS-1",
  expires,
});

/** Alert.louzhuregtime removed: one breaking finding per operation that returns alerts (six). */
const fieldRemoved = () =>
  diffEdit((d) => {
    delete schema(d, "Alert").properties.louzhuregtime;
    schema(d, "Alert").required = without(schema(d, "Alert").required ?? [], "louzhuregtime");
  });
const narrowed = () =>
  diffEdit((d) => {
    param(d, "RankLimit").schema.maximum = 200;
  });
const renamed = () =>
  diffEdit((d) => {
    get(d, "/api/v1/rank").responses["404"] = { description: "Nothing here." };
  });

describe("reading an --accept file", () => {
  it.each([
    [
      "an unknown rule",
      "- { rule: request-bound-narowed, reason: r, expires: 2026-12-31 }",
      /entry 1: no diff rule named request-bound-narowed/,
    ],
    ["no rule", "- { location: GET /api/v1/rank, reason: r, expires: 2026-12-31 }", /entry 1 needs rule/],
    [
      "a location of no known shape",
      "- { rule: path-removed, location: Alert, reason: r, expires: 2026-12-31 }",
      /location must be an operation .* got Alert/,
    ],
    [
      "an empty message",
      "- { rule: path-removed, message: '', reason: r, expires: 2026-12-31 }",
      /message must not be empty/,
    ],
    [
      "an unknown field",
      "- { rule: path-removed, operation: getRank, reason: r, expires: 2026-12-31 }",
      /unknown field operation \(known: rule, location, message, reason, expires\)/,
    ],
    ["no reason", "- { rule: path-removed, expires: 2026-12-31 }", /needs a reason/],
  ])("refuses %s", async (name, text, error) => {
    await expect(readAcceptedChanges(file(`${name}.yaml`, text))).rejects.toThrow(error);
  });

  it("reads the README's example", async () => {
    const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");
    const example = /## Accepted changes[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!example) throw new Error("README: no YAML example under Accepted changes");
    const entries = await readAcceptedChanges(file("readme.yaml", example));
    expect(entries.map((e) => e.match.rule)).toEqual(["request-bound-narrowed", "response-field-removed"]);
  });
});

describe("what an entry matches", () => {
  it.each([
    ["the rule alone: everywhere", { rule: "response-field-removed" }, 6],
    ["a pointer prefix", { rule: "response-field-removed", location: "#/components/schemas/Alert" }, 6],
    ["a pointer without #", { rule: "response-field-removed", location: "/components/schemas/Alert/" }, 6],
    [
      "a pointer, whole segments only",
      { rule: "response-field-removed", location: "#/components/schemas/Aler" },
      0,
    ],
    ["an operation", { rule: "response-field-removed", location: "GET /api/v1/feed" }, 1],
    ["a path prefix (every method)", { rule: "response-field-removed", location: "/api/v1/my" }, 2],
    ["an operation prefix", { rule: "response-field-removed", location: "GET /api/v1" }, 5],
    ["a path with a template", { rule: "response-field-removed", location: "/plus/json/rank/{act}.json" }, 1],
    ["a part of the message", { rule: "response-field-removed", message: "<Alert>.louzhuregtime" }, 1],
    ["another rule", { rule: "response-field-added" }, 0],
  ])("%s", async (_, match, accepted) => {
    const r = acceptChanges(await fieldRemoved(), [entry(match)], TODAY);
    expect(r.findings.filter((f) => f.accepted)).toHaveLength(accepted);
    expect(r.acceptance?.unused).toHaveLength(accepted ? 0 : 1);
  });
});

describe("the gate with --accept", () => {
  it("an accepted breaking change does not fail; one left open still does", async () => {
    const r = await fieldRemoved();
    const all = acceptChanges(r, [entry({ rule: "response-field-removed" })], TODAY);
    expect(failsOn(all, "breaking")).toBe(false);
    expect(all.summary.breaking).toBe(6);
    const one = acceptChanges(
      r,
      [entry({ rule: "response-field-removed", location: "GET /api/v1/feed" })],
      TODAY,
    );
    expect(failsOn(one, "breaking")).toBe(true);
  });

  it("an accepted warning does not fail --fail-on warning", async () => {
    const r = acceptChanges(await renamed(), [entry({ rule: "response-status-added" })], TODAY);
    expect(failsOn(r, "warning")).toBe(false);
    expect(r.findings.find((f) => f.rule === "response-status-added")?.accepted).toEqual({
      reason: "reviewed in OPS-1",
      expires: "2026-12-31",
    });
  });

  it("holds through its last day; after it the entry fails the gate whatever it matches", async () => {
    const r = await narrowed();
    const entries = [entry({ rule: "request-bound-narrowed" }, TODAY)];
    expect(failsOn(acceptChanges(r, entries, TODAY), "breaking")).toBe(false);
    const after = acceptChanges(r, entries, "2026-11-26");
    expect(after.findings.some((f) => f.accepted)).toBe(false);
    expect(after.acceptance?.expired).toEqual(entries);
    // An expired entry for a change this diff does not have fails too: the list cannot rot.
    const unrelated = acceptChanges(r, [entry({ rule: "path-removed" }, "2026-01-01")], TODAY);
    expect(failsOn(unrelated, "warning")).toBe(true);
    expect(failsOn(unrelated, "never")).toBe(false);
  });

  it("an entry that matched nothing is noted, not failing", async () => {
    const r = acceptChanges(
      await narrowed(),
      [entry({ rule: "request-bound-narrowed" }), entry({ rule: "path-removed" })],
      TODAY,
    );
    expect(failsOn(r, "breaking")).toBe(false);
    expect(r.acceptance?.unused.map((e) => e.match.rule)).toEqual(["path-removed"]);
  });
});
