import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AcceptListError, applyAcceptList, readAcceptList } from "./list.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-accept-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** Accepted findings: read strictly (a reason and a date each), applied by date. */
describe("accept lists", () => {
  it.each([
    ["no reason", "- { check: cors, expires: 2026-12-31 }", /entry 1 needs a reason/],
    ["no date", "- { check: cors, reason: slow CDN }", /needs expires: YYYY-MM-DD/],
    ["a bad date", "- { check: cors, reason: r, expires: soon }", /needs expires/],
    ["an unknown field", "- { check: cors, path: /x, reason: r, expires: 2026-12-31 }", /unknown field path/],
    ["nothing to match", "- { operation: getRank, reason: r, expires: 2026-12-31 }", /needs check/],
    ["not a list", "check: cors", /expected a list/],
    ["an entry that is a list", "- [cors, r, 2026-12-31]", /entry 1 is not a mapping/],
  ])("refuses %s", async (_name, text, error) => {
    await expect(
      readAcceptList(file(`${_name}.yaml`, text), ["check", "operation"], "check"),
    ).rejects.toThrow(error);
  });

  it.each([
    [
      "YAML",
      {
        given: "- check: cors\n  reason: [slow CDN\n  expires: 2026-12-31\n",
        want: { at: "3:3", snippet: "  reason: [slow CDN\n  expires: 2026-12-31\n  ^" },
      },
    ],
    [
      "JSON",
      {
        given: '[\n  { "check": "cors", "reason": "r", "expires": "2026-12-31" },,\n]\n',
        want: {
          at: "2:63",
          snippet: `  { "check": "cors", "reason": "r", "expires": "2026-12-31" },,\n${" ".repeat(62)}^`,
        },
      },
    ],
  ])(
    "a %s syntax error names file:line:column and shows the line with a caret",
    async (kind, { given, want }) => {
      const path = file(`syntax.${kind.toLowerCase()}`, given);
      const err = (await readAcceptList(path, ["check"], "check").catch(
        (e: unknown) => e,
      )) as AcceptListError;
      expect(err).toBeInstanceOf(AcceptListError);
      const [first, snippet] = err.message.split("\n\n");
      expect(first).toMatch(new RegExp(`^${path}:${want.at}: \\S`));
      expect(snippet).toBe(want.snippet);
    },
  );

  it("accepts matching findings until their entry's last day, then the entry is expired", async () => {
    const entries = await readAcceptList(
      file(
        "ok.yaml",
        "- { check: cors, reason: the CDN strips headers, expires: 2026-12-31 }\n- { check: gone, reason: r, expires: 2026-12-31 }",
      ),
      ["check"],
      "check",
    );
    const findings = [{ check: "cors" }, { check: "rank" }];
    const match = (e: (typeof entries)[number], f: { check: string }) => e.match.check === f.check;
    const before = applyAcceptList(findings, entries, match, "2026-12-31");
    expect(before.accepted.map((a) => a.finding.check)).toEqual(["cors"]);
    expect(before.open.map((f) => f.check)).toEqual(["rank"]);
    expect(before.unused.map((e) => e.match.check)).toEqual(["gone"]);
    const after = applyAcceptList(findings, entries, match, "2027-01-01");
    expect(after.accepted).toEqual([]);
    expect(after.expired.map((e) => e.match.check)).toEqual(["cors", "gone"]);
  });
});
