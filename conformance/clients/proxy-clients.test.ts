/**
 * dealkit proxy --clients-report: the clients passing through the proxy judged per source address,
 * the report written when the proxy stops. Against the bundled reference server.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpGet } from "../../mocks/http-get.ts";
import { proxyCommand } from "../passive/main.ts";
import { proxyInWorker } from "../passive/threaded-proxy.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import type { ClientsReport } from "./types.ts";

let server: Target;
let dir: string;
beforeAll(async () => {
  server = await startBundledServer();
  dir = await mkdtemp(join(tmpdir(), "dealkit-proxy-clients-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("dealkit proxy --clients-report", () => {
  it("judges each client passing through and writes the report on stop", async () => {
    const path = join(dir, "clients.json");
    const run = await proxyCommand({
      upstream: server.baseUrl,
      port: 0,
      inline: true,
      reports: [],
      clientsReports: [{ format: "json", path }],
      out: () => {},
    });
    const careless = {
      localAddress: "127.0.0.21",
      headers: { "x-api-key": "0123456789abcdef0123456789abcdef" },
    };
    await httpGet(`${run.url}/api/v1/rank?act=jintian&limit=0`, careless);
    await httpGet(`${run.url}/api/v1/meta`, { localAddress: "127.0.0.22" });
    await httpGet(`${run.url}/api/v1/feed?limit=3`, { localAddress: "127.0.0.22" });
    await run.writeClients?.();
    const onDemand = JSON.parse(await readFile(path, "utf8")) as ClientsReport;
    expect(onDemand.clients.map((c) => c.client).sort()).toEqual(["127.0.0.21", "127.0.0.22"]);
    await httpGet(`${run.url}/api/v1/meta`, { localAddress: "127.0.0.23" });
    await run.stop();
    const report = JSON.parse(await readFile(path, "utf8")) as ClientsReport;
    const byClient = Object.fromEntries(
      report.clients.map((c) => [c.client, c.findings.map((f) => f.rule).sort()]),
    );
    expect(byClient).toEqual({
      "127.0.0.21": ["client-no-key-to-public", "client-request-refused"],
      "127.0.0.22": [],
      "127.0.0.23": [],
    });
    const refused = report.clients[0]?.findings.find((f) => f.rule === "client-request-refused");
    expect(refused?.message).toContain(
      "GET /api/v1/rank?act=jintian&limit=0 → 400 /problems/invalid-parameter",
    );
    expect(JSON.stringify(report)).not.toContain("0123456789abcdef0123456789abcdef");
  });

  it("in its forwarding thread, as the CLI runs it: the report on demand, then on stop", async () => {
    const path = join(dir, "worker-clients.json");
    const proxy = await proxyInWorker({ upstream: server.baseUrl, port: 0, clientsReport: [`json=${path}`] });
    try {
      await httpGet(`${proxy.url}/api/v1/search`, { localAddress: "127.0.0.24" });
      await proxy.writeClients?.();
      let written: ClientsReport | undefined;
      for (let i = 0; i < 100 && !written; i++) {
        written = await readFile(path, "utf8").then(
          (t) => JSON.parse(t) as ClientsReport,
          () => undefined,
        );
        if (!written) await new Promise((r) => setTimeout(r, 100));
      }
      expect(written?.clients.map((c) => c.findings.map((f) => f.rule))).toEqual([
        ["client-request-refused"],
      ]);
    } finally {
      await proxy.stop();
    }
  });
});
