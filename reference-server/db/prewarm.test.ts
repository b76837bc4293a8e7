import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prewarmFile } from "./prewarm.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-prewarm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("prewarmFile", () => {
  it("reads a file to its end, across chunks, and leaves one larger than its bound alone", async () => {
    const path = join(dir, "data.db");
    // 9 MB and 1 byte: two whole 4 MB chunks and a partial one.
    const bytes = 9 * 1024 * 1024 + 1;
    writeFileSync(path, Buffer.alloc(bytes, 7));
    expect(await prewarmFile(path)).toBe(bytes);
    expect(await prewarmFile(path, bytes)).toBe(bytes);
    expect(await prewarmFile(path, bytes - 1)).toBe(0);
  });

  it("reads an empty file as 0 bytes", async () => {
    const path = join(dir, "empty.db");
    writeFileSync(path, "");
    expect(await prewarmFile(path)).toBe(0);
  });
});
