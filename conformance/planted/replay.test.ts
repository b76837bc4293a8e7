/**
 * A finding's replay reproduces it alone: the run its Replay line names (same seed, only that
 * check) finds it again, a finding the 429 burst showed included (the burst is planned whenever a
 * selected check judges 429 answers), and such a finding carries a script that fills the rate
 * window before the request that showed it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../runner/run.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { startProxy } from "./proxy.ts";
import { PLANTED } from "./variants.ts";

let upstream: Target;

beforeAll(async () => {
  upstream = await startBundledServer();
});
afterAll(async () => {
  await upstream?.close();
});

/** The check names of a Replay line's --only. */
const onlyOf = (replay: string) => (/--only '?([^' ]+)'?/.exec(replay)?.[1] ?? "").split(",");

describe("replays reproduce", () => {
  it.each([
    ["retry-after-missing", 220],
    ["rank-content-at-small-limit", 221],
    ["limit-clamped-silently", 222],
  ] as const)(
    "%s: every finding is found again by its replay alone",
    async (name, subnet) => {
      const bug = PLANTED.find((b) => b.name === name);
      if (!bug) throw new Error(`no planted bug ${name}`);
      const proxy = await startProxy(upstream.baseUrl, bug.mutation, subnet);
      const options = {
        baseUrl: proxy.url,
        seed: 42,
        skipSlow: true,
        randomRuns: 0,
        ...(upstream.account ? { account: upstream.account } : {}),
      };
      try {
        const full = await runConformance(options);
        const found = full.checks.flatMap((c) => c.violations);
        expect(found.length).toBeGreaterThan(0);
        // One replay per --only: findings of the same check share it.
        const byReplay = new Map<string, typeof found>();
        for (const v of found) {
          const key = onlyOf(v.replay).join(",");
          byReplay.set(key, [...(byReplay.get(key) ?? []), v]);
        }
        for (const [only, violations] of byReplay) {
          const replay = await runConformance({ ...options, only: only.split(",") });
          const again = replay.checks.flatMap((c) => c.violations).map((x) => `${x.code} ${x.operation}`);
          for (const v of violations) expect(again, v.replay).toContain(`${v.code} ${v.operation}`);
        }
        if (name === "retry-after-missing") {
          expect(
            found.every((v) =>
              /for i in \$\(seq 1 \d+\); do curl -s -o \/dev\/null --interface 127\.0\.0\.\d+ /.test(
                v.reproduce ?? "",
              ),
            ),
          ).toBe(true);
        }
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );
});
