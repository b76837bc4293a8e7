/**
 * The conformance command line: an account is --uid with --api-key, or --uid with the key in
 * DEALKIT_API_KEY (so a CI job keeps it off the command line); half an account is a usage error
 * before anything starts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { run } from "./conformance.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("dealkit conformance: the account options", () => {
  it("--uid without a key is a usage error", async () => {
    vi.stubEnv("DEALKIT_API_KEY", undefined);
    await expect(run(["--uid", "10001"])).rejects.toThrow(
      "--uid needs --api-key (or the DEALKIT_API_KEY environment variable)",
    );
  });

  it("--api-key without --uid is a usage error", async () => {
    await expect(run(["--api-key", "k"])).rejects.toThrow("--api-key needs --uid");
  });

  it("takes the key from DEALKIT_API_KEY when --uid is given", async () => {
    vi.stubEnv("DEALKIT_API_KEY", "0123456789abcdef0123456789abcdef");
    // Past the account options, the selection is checked before anything starts.
    await expect(run(["--uid", "10001", "--only", "no-such-check"])).rejects.toThrow(
      "no check named no-such-check",
    );
  });

  it("an empty DEALKIT_API_KEY is no key", async () => {
    vi.stubEnv("DEALKIT_API_KEY", "");
    await expect(run(["--uid", "10001"])).rejects.toThrow("--uid needs --api-key");
  });
});

describe("dealkit conformance: reports and the exchange recording", () => {
  it("records exchanges with --record (as dealkit proxy does), not as a --report format", async () => {
    await expect(run(["--report", "ndjson=x.ndjson"])).rejects.toThrow(
      "--report format must be junit, json, markdown, html, got ndjson",
    );
  });
});
