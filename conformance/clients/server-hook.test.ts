import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { ClientJudge } from "./judge.ts";
import { attachClientJudge, CLIENTS_REPORT_PATH } from "./server-hook.ts";
import type { ClientsReport } from "./types.ts";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server answering as the mock does (headers given to writeHead, the body in one end()). */
async function observed(judge: ClientJudge, now: () => number) {
  const server = createServer((req, res) => {
    const refused = req.url?.includes("limit=0");
    const body = refused ? JSON.stringify({ type: "/problems/invalid-parameter", status: 400 }) : "{}";
    res.writeHead(refused ? 400 : 200, {
      "content-type": refused ? "application/problem+json" : "application/json",
      ...(refused ? {} : { "x-dealkit-variations": "field-added" }),
    });
    res.end(body);
  });
  servers.push(server);
  attachClientJudge(server, judge, now);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the client judge on an HTTP server", () => {
  it("observes each exchange once, with the server's clock, headers and problem type", async () => {
    const spec = await loadSpec();
    const judge = new ClientJudge(spec);
    let t = 1_795_644_000_000;
    const base = await observed(judge, () => t);
    await fetch(`${base}/api/v1/rank?act=jintian&limit=0`);
    t += 2000;
    await fetch(`${base}/api/v1/feed`);
    const served = (await (await fetch(`${base}${CLIENTS_REPORT_PATH}`)).json()) as ClientsReport;
    expect(served.observed).toBe(2);
    const [client] = served.clients;
    expect(client?.findings.map((f) => f.message)).toEqual([
      "sent 1 request the contract refuses; the first: GET /api/v1/rank?act=jintian&limit=0 → 400 /problems/invalid-parameter",
    ]);
    expect(client?.variations).toMatchObject([{ variations: ["field-added"], next: "stopped" }]);
    expect(client?.first).toBe(new Date(1_795_644_000_000).toISOString());
  });

  it("refuses a spec that serves the report's own path", async () => {
    const spec = await loadSpec();
    const clashing = Object.create(spec, { match: { value: () => ({}) } }) as Spec;
    expect(() => attachClientJudge(createServer(), new ClientJudge(clashing))).toThrow(
      /is a path of the spec/,
    );
  });
});
