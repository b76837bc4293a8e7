/** dealkit proxy on the command line: what it refuses before it listens. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { run as runProxy } from "./proxy.ts";

describe("dealkit proxy with a recording it cannot write", () => {
  it("refuses in one line before it listens (exit 2), instead of crashing later", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dealkit-proxy-record-"));
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, "error")
      .mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    try {
      expect(await runProxy(["--upstream", "http://127.0.0.1:9", "--port", "0", "--record", dir])).toBe(2);
    } finally {
      spy.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
    expect(lines).toEqual([`dealkit proxy: cannot write ${dir}: EISDIR`]);
  });
});
