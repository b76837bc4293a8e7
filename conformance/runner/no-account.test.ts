/**
 * A run without an account against a --base-url, through the CLI's own command: the bundled
 * server started apart, so the run does not take its demo account. Regression: the credentials
 * rules sent their refusals and stayed "not exercised: no account"; the identical 401 needs no
 * account, only the part about a uid known to exist does, and that part is named, not passed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceCommand } from "../main.ts";
import { type PlantedProxy, startProxy } from "../planted/proxy.ts";
import { PLANTED } from "../planted/variants.ts";
import { UNKNOWN_UID } from "../rules/uniform-body.ts";
import type { RunReport } from "./report.ts";
import { startBundledServer, type Target } from "./target.ts";

const CREDENTIALS = ["rule:my-follow-credentials", "rule:my-push-credentials"];
const NEED_ACCOUNT = [
  "credentials-not-cached",
  "rule:my-follow-count-within-limit",
  "rule:my-push-count-within-limit",
];

let server: Target;
let proxy: PlantedProxy | undefined;

async function runWithoutAccount(
  baseUrl: string,
  only: string[],
): Promise<{ code: number; report: RunReport }> {
  const { code, report } = await conformanceCommand({
    baseUrl,
    seed: 7,
    skipSlow: true,
    randomRuns: 0,
    only,
    reports: [],
    out: () => {},
  });
  if (!report) throw new Error("no report");
  return { code, report };
}

const byName = (report: RunReport, name: string) => report.checks.find((c) => c.name === name);

beforeAll(async () => {
  server = await startBundledServer();
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe("without an account against a --base-url", () => {
  it("the credentials rules are judged in part, the checks of served streams are not exercised", async () => {
    const { code, report } = await runWithoutAccount(server.baseUrl, [...CREDENTIALS, ...NEED_ACCOUNT]);
    for (const name of CREDENTIALS) {
      const check = byName(report, name);
      expect(check, name).toMatchObject({ status: "pass", note: UNKNOWN_UID });
      expect(check?.informative, name).toBeGreaterThan(0);
    }
    for (const name of NEED_ACCOUNT) {
      const check = byName(report, name);
      expect(check?.status, name).toBe("not-exercised");
      expect(check?.reason, name).toMatch(/^no account/);
    }
    expect(report.verdict).toBe("incomplete");
    expect(report.incomplete?.map((r) => r.slice(0, r.indexOf(":", 5)))).toEqual(NEED_ACCOUNT);
    expect(code).toBe(3);
  }, 120_000);

  it("with only the credentials rules the run passes, their notes naming the part not judged", async () => {
    const { code, report } = await runWithoutAccount(server.baseUrl, CREDENTIALS);
    expect(report.verdict).toBe("passed");
    expect(code).toBe(0);
    expect(report.checks.filter((c) => c.status !== "skipped").map((c) => c.note)).toEqual([
      UNKNOWN_UID,
      UNKNOWN_UID,
    ]);
  }, 120_000);

  it("a 401 that tells which uid exists fails without an account", async () => {
    const bug = PLANTED.find((b) => b.name === "401-push-bodies-differ");
    if (!bug) throw new Error("the planted bug 401-push-bodies-differ is gone: pick another for this test");
    // Subnet 241: apart from the planted matrix's proxies and the HTML report's (240).
    proxy = await startProxy(server.baseUrl, bug.mutation, 241);
    const { code, report } = await runWithoutAccount(proxy.url, CREDENTIALS);
    expect(byName(report, "rule:my-push-credentials")?.status).toBe("fail");
    expect(byName(report, "rule:my-follow-credentials")?.status).toBe("pass");
    expect(code).toBe(1);
  }, 120_000);
});
