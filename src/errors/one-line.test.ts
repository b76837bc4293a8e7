import { afterEach, describe, expect, it, vi } from "vitest";
import { debugHint, oneLine } from "./one-line.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("oneLine", () => {
  it("makes one line of any error, bounded", () => {
    expect(oneLine(new Error("a  b\n    at frame (x.ts:1:1)"))).toBe("a b");
    expect(oneLine("plain")).toBe("plain");
    expect(oneLine(new TypeError(""))).toBe("TypeError");
    expect(oneLine(new Error("x".repeat(500)))).toBe(`${"x".repeat(300)}...`);
  });
});

describe("debugHint", () => {
  it("says how to get the stack, and gives it with DEALKIT_DEBUG set (not 0)", () => {
    const err = new Error("boom");
    vi.stubEnv("DEALKIT_DEBUG", "");
    expect(debugHint(err)).toBe(" (DEALKIT_DEBUG=1 shows the stack)");
    vi.stubEnv("DEALKIT_DEBUG", "0");
    expect(debugHint(err)).toBe(" (DEALKIT_DEBUG=1 shows the stack)");
    vi.stubEnv("DEALKIT_DEBUG", "1");
    expect(debugHint(err)).toBe(`\n${err.stack}`);
  });
});
