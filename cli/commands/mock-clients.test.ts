/**
 * dealkit mock --clients-report as a user runs it: the CLI in a child process, the report written on
 * demand (SIGUSR2) while the mock keeps serving, and again when it stops (SIGTERM, exit 0).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientsReport } from "../../conformance/clients/types.ts";
import { httpGet } from "../../mocks/http-get.ts";

const BIN = fileURLToPath(new URL("../../bin/dealkit.js", import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dealkit-mock-clients-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Waits until the child's output matches, and gives the match. */
function waitFor(child: ChildProcess, pattern: RegExp, seen: { out: string }): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(seen.out);
      if (m) resolve(m);
    };
    child.stdout?.on("data", check);
    child.once("close", () => reject(new Error(`the mock exited before ${pattern}: ${seen.out}`)));
    check();
  });
}

const readReport = async (path: string) => JSON.parse(await readFile(path, "utf8")) as ClientsReport;

describe("dealkit mock --clients-report", () => {
  it("writes the client report on SIGUSR2 and on SIGTERM", async () => {
    const path = join(dir, "clients.json");
    const child = spawn(process.execPath, [BIN, "mock", "--port", "0", "--clients-report", `json=${path}`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const seen = { out: "" };
    child.stdout.on("data", (c: Buffer) => {
      seen.out += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    try {
      const [, url] = await waitFor(child, /listening on (http:\/\/\S+) /, seen);
      await httpGet(`${url}/api/v1/search?cate=weibo`, { localAddress: "127.0.0.31" });
      child.kill("SIGUSR2");
      await waitFor(child, /clients failed: 1 client of 1 with findings/, seen);
      expect((await readReport(path)).clients.map((c) => c.findings.map((f) => f.rule))).toEqual([
        ["client-request-refused"],
      ]);
      await httpGet(`${url}/api/v1/search?cate=weibo`, { localAddress: "127.0.0.31" });
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const final = await readReport(path);
      expect(final.clients[0]?.findings.map((f) => f.rule)).toEqual(["client-repeats-refused-request"]);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});
