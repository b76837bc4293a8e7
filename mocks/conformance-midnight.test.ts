/**
 * The suite against the mock at the hardest time of day: two minutes after midnight in the
 * spec's time zone, today's rank window is two minutes long. The fixture set has alerts of the
 * last minutes (fixtures/generate.ts RECENT_ALERTS), so even then every check and relation finds
 * data to judge. The mock and the suite share one faked Date (advancing), so the run sees that
 * hour without waiting for it; Prism (a child process) keeps the real time, which nothing here
 * reads from it.
 */
import { afterEach, expect, it, vi } from "vitest";
import { runConformance } from "../conformance/runner/run.ts";
import { localMidnight } from "../src/rules/windows.ts";
import { loadSpec } from "../src/spec/load.ts";
import { DEFAULT_DEMO_ACCOUNT } from "./auth.ts";
import { startMock } from "./start.ts";

afterEach(() => {
  vi.useRealTimers();
});

it("exercises every check and relation two minutes after midnight (Asia/Shanghai), with no finding", async () => {
  const spec = await loadSpec();
  const midnight = localMidnight(Math.floor(Date.now() / 1000), spec.rankWindows.timezone, 0);
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: (midnight + 120) * 1000 });
  const mock = await startMock({ port: 0 });
  try {
    const report = await runConformance({
      baseUrl: mock.url,
      seed: 7,
      skipSlow: true,
      account: { uid: String(DEFAULT_DEMO_ACCOUNT.uid), key: DEFAULT_DEMO_ACCOUNT.apiKey },
    });
    const open = report.checks
      .filter((c) => c.status !== "pass")
      .map((c) => `${c.name}: ${c.status} ${c.reason ?? ""}`);
    expect(open).toEqual([]);
    expect(report.checks.length).toBeGreaterThan(60);
  } finally {
    await mock.close();
  }
}, 180_000);
