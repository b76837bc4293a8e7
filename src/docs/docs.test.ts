import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTool } from "../../test/required-tool.ts";
import { loadSpec } from "../spec/load.ts";
import { REPO_ROOT } from "../spec/paths.ts";
import type { Spec } from "../spec/spec.ts";
import { chromiumAvailable, launchChromium } from "./browser.ts";
import { docsHtml } from "./build.ts";

const SCREENSHOT = join(REPO_ROOT, "artifacts", "docs.png");

describe("docsHtml (what a server's /docs answers)", () => {
  it("builds the page once and serves later calls from the cache", async () => {
    const spec = await loadSpec();
    const html = await docsHtml();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    for (const op of spec.operations) expect(html).toContain(op.summary);
    // Each rule's and relation's examples, with their notes (reader.test.ts checks every one in the page's source).
    for (const { rule } of spec.rules())
      for (const e of rule.examples?.violates ?? []) if (e.note) expect(html).toContain(e.note);
    for (const { relation } of spec.relations())
      for (const e of relation.examples?.violates ?? []) if (e.note) expect(html).toContain(e.note);
    expect(html).toContain("satisfies: ");
    // A cache hit never builds: a builder that fails would be seen.
    const noRebuild = async (): Promise<string> => {
      throw new Error("rebuilt although the spec did not change");
    };
    expect(await docsHtml(undefined, noRebuild)).toBe(html);
  });
});

const present = requireTool({
  name: "chromium",
  available: chromiumAvailable(),
  install: "apt-get install -y chromium",
  needs: "the API reference page in a browser",
});

describe.runIf(present)("API reference page", () => {
  let spec: Spec;
  let dir: string;
  let html: string;
  let browser: Browser;
  let page: Page;
  const needed: string[] = [];

  beforeAll(async () => {
    spec = await loadSpec();
    dir = await mkdtemp(join(tmpdir(), "dealkit-docs-test-"));
    const out = join(dir, "index.html");
    html = await docsHtml();
    await writeFile(out, html);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Offline, as in CI: every network request is refused. The page must still render; the
    // only thing it may try to load is the Redocly attribution logo (an <img> that hides itself
    // on error), never a script, stylesheet, font or data request.
    await page.route(/^https?:/, (route) => {
      needed.push(`${route.request().resourceType()} ${route.request().url()}`);
      return route.abort();
    });
    await page.goto(pathToFileURL(out).href);
    await page.waitForSelector('[data-testid="menu-item-label"]', { timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is one self-contained file: the Redoc scripts are inlined, nothing loads from a CDN", () => {
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href="https?:/);
    expect(needed.filter((r) => !r.startsWith("image "))).toEqual([]);
  });

  it("lists every operation of the spec in the menu, under its tag, by summary", async () => {
    const missing: string[] = [];
    for (const tag of new Set(spec.operations.flatMap((op) => op.tags))) {
      const ops = spec.operations.filter((o) => o.tags.includes(tag));
      const linkOf = (id: string) => page.locator(`a[href="#/${tag}/${id.toLowerCase()}"]`).first();
      // A tag label toggles its group, and Redoc may already have expanded it (scroll spy):
      // click until the group is open, twice at most.
      for (let i = 0; i < 2 && !(await linkOf(ops[0]?.operationId ?? "").isVisible()); i++) {
        await page.locator(`a[href="/${tag}"]`).first().click();
        await linkOf(ops[0]?.operationId ?? "")
          .waitFor({ state: "visible", timeout: 5_000 })
          .catch(() => {});
      }
      for (const op of ops) {
        const link = linkOf(op.operationId);
        const visible = await link.isVisible().catch(() => false);
        const text = visible ? ((await link.textContent()) ?? "") : "";
        if (!text.includes(op.summary)) missing.push(`${op.operationId} (${op.summary})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("renders an operation with its parameters and a screenshot for review", async () => {
    const op = spec.operation("getRank");
    await page.locator(`a[href="#/rank/${op.operationId.toLowerCase()}"]`).first().click();
    for (const p of op.parameters) {
      await expect.poll(() => page.getByText(p.name, { exact: true }).first().isVisible()).toBe(true);
    }
    await mkdir(join(REPO_ROOT, "artifacts"), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });

  it("opens with the API, not the kit, and shows each operation's promises and code samples", async () => {
    const text = (await page.locator("body").textContent()) ?? "";
    expect(text.indexOf("Getting started")).toBeGreaterThan(-1);
    expect(text.indexOf("Getting started")).toBeLessThan(text.indexOf("single source of truth"));
    expect(html).toContain("What this endpoint promises");
    expect(html).toContain("curl -i 'http://127.0.0.1:8080/api/v1/rank?act=yixiaoshi'");
    expect(html).toContain("api.rank({ act: ");
  });
});
