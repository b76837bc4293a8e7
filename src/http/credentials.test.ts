/** The uid as sent (info.description "Order of checks"): only the account's own writing authenticates. */
import { describe, expect, it } from "vitest";
import { credentialUid } from "./credentials.ts";

describe("credentialUid", () => {
  it.each([
    ["uid=10001", 10001],
    ["uid=999999999", 999999999],
    ["uid=010001", undefined],
    ["uid=10001.0", undefined],
    ["uid=%2B10001", undefined],
    ["uid=0", undefined],
    ["uid=1000000000", undefined],
    ["uid=10001&uid=10001", undefined],
    ["uid=", undefined],
    ["", undefined],
  ])("%s authenticates %s", (query, want) => {
    expect(credentialUid(new URLSearchParams(query))).toBe(want);
  });
});
