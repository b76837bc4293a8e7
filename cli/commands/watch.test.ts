/** The watch's command line: what it refuses before sending anything (the watch itself: conformance/ledger/watch.test.ts). */
import { describe, expect, it } from "vitest";
import { run as conformance } from "./conformance.ts";
import { run } from "./watch.ts";

describe("dealkit watch: the command line", () => {
  it.each([
    ["no base URL", ["--ledger", "l.json"], "--base-url must be an http(s) URL"],
    ["no ledger", ["--base-url", "http://127.0.0.1:9"], "--ledger FILE is required"],
    [
      "a budget too small for v1's meta, the probe and one sample",
      ["--base-url", "http://127.0.0.1:9", "--ledger", "l.json", "--budget", "2"],
      "--budget must be an integer from 3 to",
    ],
    [
      "a budget over the spec's rate limit per window",
      ["--base-url", "http://127.0.0.1:9", "--ledger", "l.json", "--budget", "100000"],
      "--budget must be an integer from 3 to",
    ],
    [
      "an interval that is no duration",
      ["--base-url", "http://127.0.0.1:9", "--ledger", "l.json", "--every", "often"],
      "--every must be a duration",
    ],
  ])("refuses %s", async (_, args, message) => {
    await expect(run(args)).rejects.toThrow(message);
  });

  it("dealkit conformance --watch is the same watch, and takes only its options", async () => {
    await expect(conformance(["--watch", "10m", "--base-url", "http://127.0.0.1:9"])).rejects.toThrow(
      "--ledger FILE is required",
    );
    await expect(conformance(["--watch", "10m", "--seed", "3"])).rejects.toThrow(
      "--seed does not go with --watch",
    );
  });
});
