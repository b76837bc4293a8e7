import { describe, expect, it } from "vitest";
import { RunEnd } from "./stop.ts";

describe("RunEnd", () => {
  it("a sleep ends at once when the run is stopped meanwhile, and says why", async () => {
    const stop = new AbortController();
    const end = new RunEnd(Date.now() + 60_000, stop.signal);
    const started = Date.now();
    const sleeping = end.sleep(30_000);
    stop.abort("SIGTERM");
    expect(await sleeping).toBe("the run was stopped (SIGTERM)");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a sleep begun after the stop does not wait at all (the abort event has fired already)", async () => {
    const stop = new AbortController();
    stop.abort("SIGINT");
    const end = new RunEnd(Date.now() + 60_000, stop.signal);
    const started = Date.now();
    expect(await end.sleep(30_000)).toBe("the run was stopped (SIGINT)");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a sleep past the deadline is cut at the deadline; one within it is whole", async () => {
    const end = new RunEnd(Date.now() + 50);
    expect(await end.sleep(10)).toBeUndefined();
    expect(await end.sleep(5000)).toBe("--max-time was reached");
    expect(end.stopped).toBe(false);
  });
});
