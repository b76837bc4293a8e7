import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { README_PATH, renderReadme } from "./readme-table.ts";

describe("conformance/README.md", () => {
  it("lists every registered check (run `npx tsx conformance/readme-table.ts --write` after adding one)", async () => {
    const current = await readFile(README_PATH, "utf8");
    expect(current).toBe(await renderReadme(current));
  });
});
