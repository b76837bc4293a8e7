/**
 * `dealkit conformance --base-url A --base-url B --base-url C`: the reference server, the mock
 * and a broken target (the reference behind a planted bug's proxy) checked one after another, one
 * matrix report. Bounded: three checks (the planted bug's two and one it leaves alone), no wait.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PlantedProxy, startProxy } from "../../conformance/planted/proxy.ts";
import { PLANTED } from "../../conformance/planted/variants.ts";
import type { RunReport } from "../../conformance/runner/report.ts";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { main } from "../main.ts";

const bug = PLANTED.find((b) => b.name === "h5-dropped");
const UNTOUCHED = "rule:rank-content-omitted";

describe("dealkit conformance with several --base-url", () => {
  let reference: Target;
  let mock: RunningMock;
  let proxy: PlantedProxy;
  let dir: string;

  beforeAll(async () => {
    if (!bug) throw new Error("the planted bug h5-dropped is gone: pick another for this test");
    reference = await startBundledServer();
    mock = await startMock({ port: 0 });
    // Subnet 241: apart from the planted matrix's proxies and the HTML report test's (240).
    proxy = await startProxy(reference.baseUrl, bug.mutation, 241);
    dir = await mkdtemp(join(tmpdir(), "dealkit-conformance-matrix-"));
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
    await reference?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("shows each check's status per target in one matrix, and fails as the broken target does", async () => {
    const checks = [...(bug?.expect ?? []), UNTOUCHED];
    const [json, html, md] = ["matrix.json", "matrix.html", "matrix.md"].map((f) => join(dir, f));
    const code = await main([
      "conformance",
      ...["--base-url", reference.baseUrl, "--base-url", mock.url, "--base-url", proxy.url],
      ...["--seed", "11", "--skip-slow", "--only", checks.join(",")],
      ...["--report", `json=${json}`, "--report", `html=${html}`, "--report", `markdown=${md}`],
    ]);
    expect(code).toBe(1);
    const { targets } = JSON.parse(await readFile(json ?? "", "utf8")) as { targets: RunReport[] };
    expect(targets.map((t) => t.baseUrl)).toEqual([reference.baseUrl, mock.url, proxy.url]);
    const status = (t: RunReport, check: string) => t.checks.find((c) => c.name === check)?.status;
    const [ref, mocked, broken] = targets as [RunReport, RunReport, RunReport];
    for (const check of checks) {
      expect(status(ref, check), check).toBe("pass");
      expect(status(mocked, check), check).not.toBe("fail");
      expect(status(broken, check), check).toBe(check === UNTOUCHED ? "pass" : "fail");
    }
    const page = await readFile(html ?? "", "utf8");
    expect(page).toContain("<h1>1 of 3 targets failed</h1>");
    expect(page).toMatch(
      /<td class="st st-fail">failed<br><span class="muted">\d+ of \d+<\/span><br><a href="#t3-finding-1">/,
    );
    expect(page).toContain('<details class="finding" id="t3-finding-1"');
    const markdown = await readFile(md ?? "", "utf8");
    expect(markdown).toMatch(
      /\| ≠ `response-schema` \| ✅ passed \(\d+\/\d+\) \| ✅ passed \(\d+\/\d+\) \| ❌ failed \(\d+\/\d+\) \[\d+ findings?\]\(#target-3\) \|/,
    );
  }, 240_000);
});
