/**
 * --known: a finding an entry accepts is shown but does not fail the run; an entry past its date
 * fails it, whatever it matches; an entry nothing matched is said, so it can go.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AcceptEntry } from "../../src/accept/list.ts";
import { runConformance } from "../runner/run.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { type Proxy as PlantedProxy, startProxy } from "./proxy.ts";
import { PLANTED } from "./variants.ts";

let upstream: Target;
let proxy: PlantedProxy;
beforeAll(async () => {
  upstream = await startBundledServer();
  const bug = PLANTED.find((b) => b.name === "rank-content-at-small-limit");
  if (!bug) throw new Error("no planted bug rank-content-at-small-limit");
  proxy = await startProxy(upstream.baseUrl, bug.mutation, 240);
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});

const entry = (check: string, expires: string): AcceptEntry => ({
  match: { check },
  reason: "tracked in ISSUE-1",
  expires,
});
const run = (known: AcceptEntry[]) =>
  runConformance({
    baseUrl: proxy.url,
    seed: 42,
    skipSlow: true,
    randomRuns: 0,
    only: ["rule:rank-*"],
    known,
    today: "2026-11-26",
    ...(upstream.account ? { account: upstream.account } : {}),
  });

describe("known findings", () => {
  it("an accepted finding is shown, not failing; an entry that matched nothing is noted", async () => {
    const report = await run([
      entry("rule:rank-content-omitted", "2026-12-31"),
      entry("rule:rank-order", "2026-12-31"),
    ]);
    const check = report.checks.find((c) => c.name === "rule:rank-content-omitted");
    expect(check?.status).toBe("pass");
    expect(check?.violations.map((v) => v.known?.reason)).toEqual(["tracked in ISSUE-1"]);
    expect(report.passed).toBe(true);
    expect(report.notes.join("\n")).toMatch(/known finding not seen in this run .*rule:rank-order/);
  }, 60_000);

  it("an expired entry fails the run", async () => {
    const report = await run([entry("rule:rank-content-omitted", "2026-11-25")]);
    expect(report.passed).toBe(false);
    expect(report.expiredKnown).toEqual([
      "check rule:rank-content-omitted (until 2026-11-25: tracked in ISSUE-1)",
    ]);
    expect(report.checks.find((c) => c.name === "rule:rank-content-omitted")?.status).toBe("fail");
  }, 60_000);

  it("an entry naming no check is refused", async () => {
    await expect(run([entry("rule:rank-ordr", "2026-12-31")])).rejects.toThrow(
      "no check named rule:rank-ordr",
    );
  });
});
