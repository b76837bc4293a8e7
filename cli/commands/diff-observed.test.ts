/**
 * The diff against a ledger: which removals the deployment still sends. The ledger is recorded
 * by the ledger's own recorder from answers, so the test also holds the two path schemes
 * (the recorder's, from answers; the diff's, from schemas) to one another.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { LedgerRecorder } from "../../conformance/ledger/record.ts";
import { emptyLedger, type Ledger } from "../../conformance/ledger/types.ts";
import { formatObserved, observedRemovals } from "../../src/diff/observed.ts";
import { type Doc, schema, spec, without } from "../../src/diff/testing.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { run } from "./diff.ts";

const current = spec();

/** Alert.louzhu, ZdmItem.mall_name and the feed's meta.retention removed. */
function removals(): Doc {
  const d = spec();
  delete schema(d, "Alert").properties.louzhu;
  delete schema(d, "ZdmItem").properties.mall_name;
  schema(d, "ZdmItem").required = without(schema(d, "ZdmItem").required, "mall_name");
  delete schema(d, "FeedResponse").properties.meta.properties.retention;
  schema(d, "FeedResponse").properties.meta.required = without(
    schema(d, "FeedResponse").properties.meta.required,
    "retention",
  );
  return d;
}

/** Feed answers of category items carrying louzhu (no zdm item, no retention), as a deployment sent them. */
async function ledger(): Promise<Ledger> {
  const feedSchema = (await loadSpec()).responseSchema("getFeed", 200, "application/json");
  const recorder = new LedgerRecorder(emptyLedger(), "r1", () => Date.parse("2026-11-20T10:00:00Z"));
  for (let i = 1; i <= 3; i++)
    recorder.answer(
      "getFeed 200",
      {
        data: [{ id: i, title: "t", cateid: "10", louzhu: "someone" }],
        meta: { cate: "all", limit: 20, count: 1 },
      },
      feedSchema,
    );
  return recorder.result();
}

describe("the diff's removals against the ledger", () => {
  it("says which removals the deployment still sends, which it never sent, and which it was not seen answering", async () => {
    const found = await observedRemovals(current, removals(), await ledger());
    const of = (operationId: string, path: string) =>
      found.find((r) => r.operationId === operationId && r.status === "200" && r.path === path)?.seen;
    expect(of("getFeed", "data[].louzhu")).toBe("still-sent");
    expect(of("getFeed", "data[type=smzdm].mall_name")).toBe("never-sent");
    expect(of("getFeed", "meta.retention")).toBe("never-sent");
    expect(of("getRank", "data[].louzhu")).toBe("not-observed");
    // Nothing else was removed: every entry is one of the three edits (the legacy rank file's
    // answer is the array itself).
    expect(new Set(found.map((r) => r.path))).toEqual(
      new Set(["data[].louzhu", "$[].louzhu", "data[type=smzdm].mall_name", "meta.retention"]),
    );
  });

  it("an operation's status removed is the whole answer", async () => {
    const head = spec();
    delete head.paths["/api/v1/feed"].get.responses["200"];
    const found = await observedRemovals(current, head, await ledger());
    expect(found).toContainEqual(
      expect.objectContaining({ operationId: "getFeed", status: "200", path: "$", seen: "still-sent" }),
    );
  });

  it("formats the still-sent first, with the ledger's dates", async () => {
    const l = await ledger();
    const text = formatObserved(await observedRemovals(current, removals(), l), "text", "ledger.json", l);
    expect(text.split("\n")[1]).toMatch(
      /^ {2}still sent {5}GET \/api\/v1\/feed 200 data\[\]\.louzhu: sent 3 times, last 2026-11-20/,
    );
  });
});

describe("dealkit diff --observed", () => {
  const dir = mkdtempSync(join(tmpdir(), "dealkit-diff-observed-"));
  afterEach(() => vi.restoreAllMocks());

  it("adds the observations to the JSON document, and refuses a file that is not a ledger", async () => {
    const base = join(dir, "base.yaml");
    const head = join(dir, "head.yaml");
    const file = join(dir, "ledger.json");
    writeFileSync(base, stringify(current));
    writeFileSync(head, stringify(removals()));
    writeFileSync(file, JSON.stringify(await ledger()));
    const printed: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
    const code = await run([base, head, "--format", "json", "--observed", file]);
    expect(code).toBe(1);
    const out = JSON.parse(printed.join("\n")) as {
      findings: unknown[];
      observed: { removals: { seen: string }[] };
    };
    expect(out.findings.length).toBeGreaterThan(0);
    expect(out.observed.removals[0]?.seen).toBe("still-sent");
    writeFileSync(file, "{}");
    await expect(run([base, head, "--observed", file])).rejects.toThrow(/not a dealkit ledger/);
  });
});
