import { describe, expect, it } from "vitest";
import { UsageError } from "../args.ts";
import { run, usage } from "./mock.ts";

describe("dealkit mock --variations", () => {
  it("is refused without the rule layer, before anything starts", async () => {
    await expect(run(["--variations", "42", "--no-rules"])).rejects.toThrow(UsageError);
    await expect(run(["--variations", "42", "--no-rules"])).rejects.toThrow(
      /--variations needs the rule layer/,
    );
  });

  it("is in the usage, with what it varies and where the ids are", () => {
    expect(usage).toContain("[--variations SEED]");
    expect(usage).toContain("X-Dealkit-Variations");
  });
});
