import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { socketTransport } from "./test/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `dealkit serve` as a user runs it: a real process, a real port, logs, a signal to stop. */
describe("dealkit serve", () => {
  it("starts, prints the demo key once, logs requests without the key, and stops on SIGTERM", async () => {
    const key = "abcdefabcdefabcdefabcdefabcdef12";
    const child = spawn(
      process.execPath,
      ["bin/dealkit.js", "serve", "--port", "0", "--db", join(dir, "cli.db"), "--size", "300", "--seed", "3"],
      { env: { ...process.env, DEALKIT_DEMO_KEY: key }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString();
        const m = /reference server on (http:\/\/\S+)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const send = socketTransport(url);
    expect((await send("/api/v1/my/follow?uid=10001", { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await send("/api/v1/meta")).status).toBe(200);

    const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect(stderr).toContain(`X-API-Key ${key}`);
    expect(stdout).toContain('"url":"/api/v1/my/follow?uid=10001"');
    expect(stdout).not.toContain(key);
    expect(stderr).toContain("SIGTERM, closing");
  });
});

/** `dealkit serve` with arguments; resolves with its exit code and stderr once it exits. */
function serveExit(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/dealkit.js", "serve", "--quiet", ...args],
      { timeout: 20_000 },
      (err, _out, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
    );
  });
}

describe("dealkit serve: a start that fails says why in one line and exits 2", () => {
  it("a port in use", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    const { code, stderr } = await serveExit(
      "--port",
      String(port),
      "--db",
      join(dir, "port.db"),
      "--size",
      "100",
    );
    taken.close();
    expect(code).toBe(2);
    expect(stderr).toBe(
      `dealkit serve: 127.0.0.1:${port} is in use (another server?); choose another port with --port (0 picks a free one)\n`,
    );
  });

  it("a malformed Redis URL (a Redis that is down is no reason not to start: it is joined later)", async () => {
    const { code, stderr } = await serveExit(
      "--port",
      "0",
      "--db",
      join(dir, "redis.db"),
      "--size",
      "100",
      "--redis-url",
      "http://cache:6379",
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^dealkit serve: could not start: invalid Redis URL [^\n]*\n$/);
  });

  it("a file that is not a database", async () => {
    const path = join(dir, "not-a.db");
    writeFileSync(path, "this is not SQLite\n".repeat(100));
    const { code, stderr } = await serveExit("--port", "0", "--db", path);
    expect(code).toBe(2);
    expect(stderr).toBe(`dealkit serve: cannot use the database ${path}: file is not a database\n`);
  });
});
