import { describe, expect, it } from "vitest";
import { compareDecimal, decimalText, priceBound } from "./decimal.ts";

describe("exact decimal prices", () => {
  it.each([
    [1e21, "1000000000000000000000"],
    [1e-7, "0.0000001"],
    [19.9, "19.9"],
    [0.1 + 0.2, "0.30000000000000004"],
  ])("writes %s as %s", (n, want) => expect(decimalText(n)).toBe(want));

  it.each([
    ["19.9", "19.90", 0],
    ["19.9", "19.90000000000000000001", -1],
    ["100", "99.999", 1],
    ["0.3", "0.30000000000000004", -1],
    ["007", "7.0", 0],
  ])("compares %s with %s", (a, b, want) => expect(compareDecimal(a, b)).toBe(want));

  it.each([
    ["a bound a price equals is kept", "19.9", 19.9, true, true],
    ["a minimum just above a price excludes it", "19.90000000000000000001", 19.9, false, true],
    ["a maximum just below a price excludes it", "19.89999999999999999999", 19.9, true, false],
    ["0.1 + 0.2 is not 0.3", "0.3", 0.1 + 0.2, true, false],
  ])("%s", (_name, raw, price, keptByMin, keptByMax) => {
    expect(price >= priceBound(raw, "min")).toBe(keptByMin);
    expect(price <= priceBound(raw, "max")).toBe(keptByMax);
    expect(compareDecimal(decimalText(price), raw) >= 0).toBe(keptByMin);
  });
});
