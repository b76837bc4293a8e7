/**
 * The bundled typed client in headless Chromium against `dealkit mock --variations`: every call
 * succeeds, and its data equals what the same call gets without variations, but for what the
 * variations explain (fields added, optional fields absent, key order). The browser negotiates
 * compression itself (Accept-Encoding). Both layers run on one held clock that only the page's
 * client moves: its Retry-After sleeps advance it (exposed to the page), so a drawn 429 is waited
 * out exactly, and the unvaried call right after sees the same instant (meta's generated_at).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { createRuleLayer } from "../../mocks/rule-layer.ts";
import { type RunningMock, startMock } from "../../mocks/start.ts";
import { VARIATIONS } from "../../mocks/variations-catalogue.ts";
import { unexplainedDifferences } from "../../mocks/variations-compare.ts";
import { chromiumAvailable, launchChromium } from "../../src/docs/browser.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { requireTool } from "../required-tool.ts";
import { heldClock } from "./held-clock.ts";
import { type PageOrigin, startPageOrigin } from "./page-origin.ts";
import { callsUnderVariations } from "./variations-scenarios.ts";

const present = requireTool({
  name: "chromium",
  available: chromiumAvailable(),
  install: "apt-get install -y chromium",
  needs: "the typed client in a browser against the mock with variations",
});

describe.runIf(present)("the bundled client in a browser, against mock --variations", () => {
  let spec: Spec;
  let browser: Browser;
  let origin: PageOrigin;
  let mock: RunningMock;
  let plain: Server;
  const clock = heldClock();

  beforeAll(async () => {
    spec = await loadSpec();
    clock.hold();
    [origin, mock, browser] = await Promise.all([
      startPageOrigin(),
      startMock({ port: 0, now: clock.now, variations: "browser-client" }),
      launchChromium(),
    ]);
    // The same fixtures without variations: a second rule layer over the mock's Prism.
    plain = createRuleLayer({ spec, upstream: mock.prismUrl, now: clock.now });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    plain?.closeAllConnections();
    await new Promise((resolve) => plain?.close(resolve));
    await Promise.all([origin?.close(), mock?.close()]);
  });

  it("every call succeeds and returns the unvaried data, but for what the variations explain", async () => {
    const page = await (await browser.newContext()).newPage();
    await page.exposeFunction("advanceMockClock", (ms: number) => clock.advance(ms));
    await page.goto(origin.url);
    await page.waitForFunction(() => "dealkit" in globalThis);
    const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    const { uid, apiKey } = DEFAULT_DEMO_ACCOUNT;
    const run = await page.evaluate(callsUnderVariations, {
      varied: mock.url,
      plain: plainUrl,
      uid,
      key: apiKey,
      rounds: 4,
    });
    expect(run.failures).toEqual([]);
    expect(run.pairs).toHaveLength(48);
    for (const { operationId, got, want } of run.pairs) {
      if (typeof want === "string") {
        expect(String(got).replaceAll(mock.url, plainUrl), operationId).toBe(want);
        continue;
      }
      const schema = spec.responseSchema(operationId, 200, "application/json");
      expect(unexplainedDifferences(got, want, schema), operationId).toEqual([]);
    }
    expect(run.seen.sort()).toEqual(VARIATIONS.map((v) => v.id).sort());
    // The mock judged the page's traffic as a client's (x-client-rules): the kit's own client, in a
    // browser, under every variation, earns no finding.
    const judged = mock.clients?.();
    expect(judged?.clients.flatMap((c) => c.findings)).toEqual([]);
    expect(judged?.verdict).toBe("passed");
  }, 120_000);
});
