import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { README_PATH } from "../readme-table.ts";
import { renderPassiveTable } from "./readme-table.ts";

describe("conformance/README.md, passive conformance", () => {
  it("says how every registered check applies to traffic (run `npx tsx conformance/passive/readme-table.ts --write` after adding one)", async () => {
    const current = await readFile(README_PATH, "utf8");
    expect(current).toBe(await renderPassiveTable(current));
  });
});
