/**
 * A cancelled CI job or a Ctrl-C: `dealkit conformance` stops at once, judges what it received,
 * writes every report it was asked for and exits 128 + the signal (130 SIGINT, 143 SIGTERM), as a
 * shell reports a process a signal ended. Run as a clone runs it: the CLI in a child process.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/dealkit.js", import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dealkit-stop-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the suite on the bundled server and sends `signal` once it waits out Retry-After (about a minute). */
function stoppedRun(
  signal: NodeJS.Signals,
  files: string[],
): Promise<{ code: number | null; out: string; afterSignalMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, "conformance", "--seed", "5", ...files.flatMap((f) => ["--report", f])],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let sentAt = 0;
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (!sentAt && out.includes("waiting Retry-After")) {
        sentAt = Date.now();
        child.kill(signal);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, afterSignalMs: Date.now() - sentAt }));
  });
}

describe("dealkit conformance stopped by a signal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s: every report written with the judged part, exit %i",
    async (signal, code) => {
      const json = join(dir, `${signal}.json`);
      const junit = join(dir, `${signal}.xml`);
      const markdown = join(dir, `${signal}.md`);
      const run = await stoppedRun(signal, [`json=${json}`, `junit=${junit}`, `markdown=${markdown}`]);
      expect(run.code, run.out).toBe(code);
      // It stopped at once, not after the minute the wait would have taken.
      expect(run.afterSignalMs).toBeLessThan(15_000);
      const report = JSON.parse(await readFile(json, "utf8"));
      expect(report.stopped).toBe(`the run was stopped (${signal})`);
      expect(report.passed).toBe(false);
      // What was received is judged: the checks the burst's window fed have evidence.
      expect(report.checks.find((c: { id: string }) => c.id === "response-schema").status).toBe("pass");
      const rateLimit = report.checks.find((c: { id: string }) => c.id === "rate-limit");
      expect(`${rateLimit.reason ?? ""} ${rateLimit.note ?? ""}`).toContain(
        `the run was stopped (${signal}) during the wait`,
      );
      expect(await readFile(junit, "utf8")).toContain(`<error message="the run was stopped (${signal})"/>`);
      expect(await readFile(markdown, "utf8")).toMatch(
        /^## ⏹️ dealkit conformance: incomplete: the run was stopped/,
      );
    },
    60_000,
  );
});
