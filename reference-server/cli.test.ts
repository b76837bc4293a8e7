import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { socketTransport } from "./test/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Serving {
  url: string;
  /** What it printed so far: the JSON request logs, the human lines. */
  output(): { stdout: string; stderr: string };
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `dealkit serve ARGS` in a real process, once it says where it listens. */
async function serve(args: string[], env: Record<string, string | undefined> = {}): Promise<Serving> {
  const child = spawn(process.execPath, ["bin/dealkit.js", "serve", "--port", "0", ...args], {
    env: { ...process.env, DEALKIT_DEMO_KEY: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      const m = /reference server on (http:\/\/\S+)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
    // A start that never says where it listens must not outlive the test.
    setTimeout(() => child.kill("SIGTERM"), 20_000).unref();
  });
  return {
    url,
    output: () => ({ stdout, stderr }),
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** `dealkit serve` as a user runs it: a real process, a real port, logs, a signal to stop. */
describe("dealkit serve", () => {
  it("starts, prints the demo key once, logs requests without the key, and stops on SIGTERM", async () => {
    const key = "abcdefabcdefabcdefabcdefabcdef12";
    const server = await serve(["--db", join(dir, "cli.db"), "--size", "300", "--seed", "3"], {
      DEALKIT_DEMO_KEY: key,
    });
    const send = socketTransport(server.url);
    expect((await send("/api/v1/my/follow?uid=10001", { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await send("/api/v1/meta")).status).toBe(200);

    expect(await server.stop()).toBe(0);
    const { stdout, stderr } = server.output();
    expect(stderr).toContain(`X-API-Key ${key}`);
    expect(stdout).toContain('"url":"/api/v1/my/follow?uid=10001"');
    expect(stdout).not.toContain(key);
    expect(stderr).toContain("SIGTERM, closing");
  });
});

/**
 * Regression: a server restarted on its database said nothing of the demo account, whose key was
 * printed only at the first start: the personal streams, and the suite's checks of them, were out
 * of reach. Each start below is on the same file, in order.
 */
describe("dealkit serve on an existing database: the demo account", () => {
  const db = join(dir, "restart.db");
  const keys: string[] = [];
  const followWith = async (url: string, key: string | undefined) =>
    (await socketTransport(url)("/api/v1/my/follow?uid=10001", { headers: key ? { "x-api-key": key } : {} }))
      .status;

  it.each([
    ["the first start makes it and prints its key", { args: [], printsKey: true }],
    ["a restart names the uid and how to get a key, and prints none", { args: [], printsKey: false }],
    [
      "a restart with --new-demo-key prints a new key; the old one stops working",
      { args: ["--new-demo-key"], printsKey: true },
    ],
  ])("%s", async (_name, { args, printsKey }) => {
    const server = await serve(["--quiet", "--db", db, "--size", "100", "--seed", "3", ...args]);
    const { stderr } = server.output();
    const key = /demo account: uid 10001, X-API-Key ([0-9a-f]{32})\n/.exec(stderr)?.[1];
    try {
      if (printsKey) {
        expect(key, stderr).toBeDefined();
        expect(await followWith(server.url, key)).toBe(200);
        for (const old of keys) expect(await followWith(server.url, old)).toBe(401);
        keys.push(key ?? "");
      } else {
        expect(key, stderr).toBeUndefined();
        expect(stderr).toContain("demo account: uid 10001; its key was shown when it was made");
        expect(stderr).toContain("restart with --new-demo-key added");
        expect(await followWith(server.url, keys.at(-1))).toBe(200);
      }
    } finally {
      await server.stop();
    }
  });

  it("refuses --new-demo-key with DEALKIT_DEMO_KEY (two choices of one key)", async () => {
    vi.stubEnv("DEALKIT_DEMO_KEY", "abcdefabcdefabcdefabcdefabcdef12");
    const { code, stderr } = await serveExit("--db", db, "--new-demo-key").finally(() => vi.unstubAllEnvs());
    expect({ code, firstLine: stderr.split("\n")[0] }).toEqual({
      code: 2,
      firstLine: "dealkit serve: --new-demo-key and DEALKIT_DEMO_KEY both choose the demo key: use one",
    });
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
