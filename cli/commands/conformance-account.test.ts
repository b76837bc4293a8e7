/**
 * What `dealkit conformance --help` says happens without --uid must be what happens. Regression:
 * the help said the bundled demo account is used, while a run against a --base-url reported "no
 * account" and left the key-protected checks unjudged; the --skip it now advises must leave out
 * exactly those checks, no fewer (the run stays incomplete) and no more (checks lost for nothing).
 * Regression: the identical 401 of the credentials rules came to be judged without an account, and
 * the advised `rule:my-*` would have skipped them for nothing.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry, selectChecks } from "../../conformance/registry.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { usage } from "./conformance.ts";

/** The --uid/--api-key entry of the usage text, on one line. */
const accountHelp = (usage.split("--uid/--api-key ")[1] ?? "").replace(/\s+/g, " ");

describe("dealkit conformance --help: without an account", () => {
  it("says a run against a --base-url is incomplete (exit 3) unless the key-protected checks are skipped", () => {
    expect(accountHelp).toContain(
      "against a --base-url the checks of served personal streams are not judged",
    );
    expect(accountHelp).toContain("incomplete (exit 3)");
  });

  it("advises a --skip that leaves out exactly the checks needing an account", async () => {
    const advised = /--skip '([^']+)'/.exec(accountHelp)?.[1];
    expect(advised).toBeDefined();
    const registry = defaultRegistry(await loadSpec());
    const kept = new Set(selectChecks(registry, undefined, advised?.split(",")));
    const skipped = registry.all().filter((c) => !kept.has(c));
    const needAccount = registry.all().filter((c) => c.needsAccount);
    expect(needAccount.length).toBeGreaterThan(0);
    expect(skipped.map((c) => c.name)).toEqual(needAccount.map((c) => c.name));
  });

  it("says the credentials rules, not skipped, are judged in part without an account", async () => {
    const registry = defaultRegistry(await loadSpec());
    const credentials = registry.all().filter((c) => /^rule:my-.*-credentials$/.test(c.name));
    expect(credentials.map((c) => c.name)).toEqual([
      "rule:my-follow-credentials",
      "rule:my-push-credentials",
    ]);
    expect(credentials.every((c) => !c.needsAccount)).toBe(true);
    expect(accountHelp).toContain("the identical 401 of rule:my-*-credentials is judged in part");
  });
});
