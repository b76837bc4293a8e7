import { afterEach, describe, expect, it, vi } from "vitest";
import { run } from "./import.ts";

// The command's library function fails in a way nobody planned for.
vi.mock("../../reference-server/import.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../reference-server/import.ts")>()),
  importAlerts: async () => {
    throw new TypeError("something broke\n    at secretFrame (x.ts:1:1)");
  },
}));

async function stderrOf(args: string[]): Promise<{ code: number; stderr: string }> {
  const err: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  try {
    return { code: await run(args), stderr: err.join("\n") };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("dealkit import: an unexpected failure", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is one line that points to DEALKIT_DEBUG, and exits 2", async () => {
    vi.stubEnv("DEALKIT_DEBUG", "");
    expect(await stderrOf(["items.ndjson"])).toEqual({
      code: 2,
      stderr: "dealkit import: internal error: something broke (DEALKIT_DEBUG=1 shows the stack)",
    });
  });

  it("shows its stack with DEALKIT_DEBUG=1", async () => {
    vi.stubEnv("DEALKIT_DEBUG", "1");
    const { code, stderr } = await stderrOf(["items.ndjson"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^dealkit import: internal error: something broke\nTypeError: something broke/);
  });
});
