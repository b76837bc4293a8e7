/**
 * The field: planted bugs caught from one client address, paced (windows shortened to 10 s on
 * both sides), with the data moving (a new alert every second). Each first shows it took effect.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../runner/run.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { expectExactly, expectMutated } from "./matrix.ts";
import { startProxy } from "./proxy.ts";
import { PLANTED } from "./variants.ts";

describe("planted bugs, from one address", () => {
  let live: Target;
  beforeAll(async () => {
    live = await startBundledServer({ rateLimit: { windowSeconds: 10 }, liveEveryMs: 1000 });
  });
  afterAll(async () => {
    await live?.close();
  });

  it.each(
    [
      "search-ignores-kp",
      "feed-pages",
      "retry-after-missing",
      "refused-counted",
      "forwarded-for-trusted",
    ].map((name, i) => [name, i] as const),
  )(
    "%s fails exactly the intended checks",
    async (name, i) => {
      const bug = PLANTED.find((b) => b.name === name);
      if (!bug) throw new Error(`no planted bug ${name}`);
      const proxy = await startProxy(live.baseUrl, bug.mutation, 230 + i);
      try {
        const report = await runConformance({
          baseUrl: proxy.url,
          seed: 43,
          addresses: 1,
          rate: bug.rate ?? { limit: 60, windowSeconds: 10 },
          ...(live.account ? { account: live.account } : {}),
        });
        expect(report.mode).toBe("one-address");
        await expectMutated(proxy, bug);
        expectExactly(report, bug);
        expect(report.requests).toBeLessThanOrEqual(200);
      } finally {
        await proxy.close();
      }
    },
    90_000,
  );
});
