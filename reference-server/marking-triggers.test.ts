import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MARKING_TRIGGER_FLAGS } from "./marking-triggers.ts";

describe("V8 marking triggers", () => {
  it("names flags this Node's V8 knows (an unknown flag would be ignored without a word)", () => {
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    for (const flag of Object.keys(MARKING_TRIGGER_FLAGS)) expect(options).toContain(`--${flag} (`);
  });
});
