/**
 * The ledger's judgements in the report under --known: an accepted removal is shown, marked known,
 * and does not fail the run; anything else still does; an entry that matched nothing is noted;
 * and a --known file may name the ledger's checks at all (they are not in the run's registry).
 */
import { describe, expect, it } from "vitest";
import type { AcceptEntry } from "../../src/accept/list.ts";
import { UnknownCheckError } from "../registry.ts";
import type { RunReport } from "../runner/report.ts";
import { validateSelection } from "../runner/run.ts";
import type { LedgerJudgement } from "./judge.ts";
import { withLedger } from "./report.ts";
import { emptyLedger, type Ledger } from "./types.ts";

const TODAY = "2026-11-27";
const report = { checks: [], notes: [], verdict: "passed", passed: true } as unknown as RunReport;
// Six runs that saw a field and v1 served: every ledger check has something to judge.
const ledger: Ledger = {
  ...emptyLedger(),
  runs: 6,
  kinds: { "getFeed 200": { fields: { "data[].louzhu": {} } } } as unknown as Ledger["kinds"],
  versions: { "/api/v1": {} } as unknown as Ledger["versions"],
};
const removal = (path: string): LedgerJudgement => ({
  check: "ledger:field-removed",
  level: "failure",
  operation: "getFeed",
  answerKind: "getFeed 200",
  path,
  title: `${path} is no longer sent`,
  evidence: { lastSeen: "2026-11-01" },
});
const entry = (match: AcceptEntry["match"], expires = "2026-12-31"): AcceptEntry => ({
  match,
  reason: "renamed in 1.3, clients told",
  expires,
});
const checkOf = (r: RunReport, name: string) => r.checks.find((c) => c.name === name);

describe("ledger findings under --known", () => {
  it("an accepted removal is shown, marked known, and the run passes", () => {
    const known = { entries: [entry({ check: "ledger:field-removed" })], today: TODAY };
    const out = withLedger(report, [removal("data[].louzhu")], ledger, "l.json", known);
    const removed = checkOf(out, "ledger:field-removed");
    expect(removed?.status).toBe("pass");
    expect(removed?.violations).toHaveLength(1);
    expect(removed?.violations[0]?.known).toEqual({
      reason: "renamed in 1.3, clients told",
      expires: "2026-12-31",
    });
    expect(removed?.note).toContain("1 known finding(s), accepted (--known)");
    expect(out.passed).toBe(true);
  });

  it("an entry matches by code too: another removal still fails the run", () => {
    const known = {
      entries: [entry({ check: "ledger:field-removed", code: "ledger:field-removed/data[].louzhu" })],
      today: TODAY,
    };
    const out = withLedger(
      report,
      [removal("data[].louzhu"), removal("data[].price")],
      ledger,
      "l.json",
      known,
    );
    const removed = checkOf(out, "ledger:field-removed");
    expect(removed?.status).toBe("fail");
    expect(removed?.violations.map((v) => !!v.known)).toEqual([true, false]);
    expect(out.passed).toBe(false);
  });

  it("without --known, or with an entry past its date, the removal fails", () => {
    expect(withLedger(report, [removal("data[].louzhu")], ledger, "l.json").passed).toBe(false);
    const stale = { entries: [entry({ check: "ledger:field-removed" }, "2026-11-26")], today: TODAY };
    expect(withLedger(report, [removal("data[].louzhu")], ledger, "l.json", stale).passed).toBe(false);
  });

  it("notes a ledger entry nothing matched, and ignores entries for the run's own checks", () => {
    const known = {
      entries: [entry({ check: "ledger:type-changed" }), entry({ check: "rule:rank-order" })],
      today: TODAY,
    };
    const out = withLedger(report, [], ledger, "l.json", known);
    const unused = out.notes.filter((n) => n.includes("the entry can go"));
    expect(unused).toHaveLength(1);
    expect(unused[0]).toContain("check ledger:type-changed");
    expect(out.passed).toBe(true);
  });

  it("a ledger check with nothing to judge leaves the run incomplete; the ledger's first run does not", () => {
    const unversioned = { ...ledger, versions: {} };
    const out = withLedger(report, [], unversioned, "l.json");
    expect(out.verdict).toBe("incomplete");
    expect(out.incomplete?.[0]).toMatch(/^ledger:v1-retired-early: /);
    const first = withLedger(report, [], { ...unversioned, runs: 1 }, "l.json");
    expect(first.verdict).toBe("passed");
    expect(checkOf(first, "ledger:field-removed")?.status).toBe("skipped");
  });

  it("a --known file may name a ledger check; a misspelt one is still refused", async () => {
    await expect(
      validateSelection({ known: [entry({ check: "ledger:field-removed" })] }),
    ).resolves.toBeUndefined();
    await expect(validateSelection({ known: [entry({ check: "ledger:field-gone" })] })).rejects.toThrow(
      UnknownCheckError,
    );
  });
});
