/**
 * `dealkit proxy` as the CLI runs it: forwarding in a worker thread with a bounded heap, judging in
 * its own worker, the options read in the forwarding thread. It forwards, stops with the report of
 * what it saw, and refuses a wrong --only or --report as a usage error before it listens.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBundledServer, type Target } from "../runner/target.ts";
import { OptionError } from "./option-error.ts";
import { proxyInWorker } from "./threaded-proxy.ts";

let server: Target;
beforeAll(async () => {
  server = await startBundledServer();
});
afterAll(async () => {
  await server?.close();
});

describe("dealkit proxy in its worker threads", () => {
  it("forwards the upstream's answer and stops with the report of the exchanges it saw", async () => {
    const proxy = await proxyInWorker({ upstream: server.baseUrl, port: 0 });
    let status = 0;
    let body = "";
    try {
      const res = await fetch(`${proxy.url}/api/v1/meta`);
      status = res.status;
      body = await res.text();
    } finally {
      const { code, report } = await proxy.stop();
      expect(code).toBe(0);
      expect(report.passive).toMatchObject({ exchanges: 1, judged: 1, findings: 0 });
    }
    expect(status).toBe(200);
    expect(JSON.parse(body).data.api_version).toBeTypeOf("string");
  });

  it("refuses a check it does not know as an option error, before it listens", async () => {
    await expect(
      proxyInWorker({ upstream: server.baseUrl, port: 0, only: "no-such-check" }),
    ).rejects.toBeInstanceOf(OptionError);
  });

  it("reads the options in its thread: a wrong --report is an option error too", async () => {
    await expect(
      proxyInWorker({ upstream: server.baseUrl, port: 0, report: ["pdf=out.pdf"] }),
    ).rejects.toThrow(/--report format must be/);
  });
});
