import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
