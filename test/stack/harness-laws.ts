/**
 * What every proxy harness of test/stack/ must do, as one law suite each harness test file runs:
 * it starts in front of the reference server and stops leaving no process and no prefix; a config
 * its program rejects throws the program's own words and leaves nothing behind; and the server sees
 * each client's own address through it (X-Forwarded-For from the one address it trusts).
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { type ForegroundProcess, PROXY_ADDRESS } from "./foreground.ts";

export interface Harness {
  /** The prefix's name part: dealkit-<name>-XXXXXX. */
  name: string;
  /** Starts the recommended config in front of `upstream`, from `templatesDir` when given. */
  start(upstream: string, templatesDir?: string): Promise<ForegroundProcess>;
  templatesDir: string;
  /** The recommended template's file name, and a line its program refuses. */
  template: string;
  badLine: string;
}

export function harnessLaws(harness: Harness): void {
  let server: Target;
  beforeAll(async () => {
    server = await startBundledServer({ trustedProxies: [PROXY_ADDRESS] });
  });
  afterAll(() => server?.close());

  it("passes a request through to the server, and close() leaves no process and no prefix", async () => {
    const proxy = await harness.start(server.baseUrl);
    expect((await get(`${proxy.url}/api/v1/meta`)).status).toBe(200);
    await proxy.close();
    expect(groupAlive(proxy.pid), `process group ${proxy.pid} still alive`).toBe(false);
    expect(await prefixes(harness.name)).not.toContain(proxy.prefix.split("/").pop());
  });

  it("throws its program's own words for a config it rejects, and leaves no prefix behind", async () => {
    const templates = await mkdtemp(join(tmpdir(), "dealkit-templates-"));
    try {
      await cp(harness.templatesDir, templates, { recursive: true });
      const file = join(templates, harness.template);
      await writeFile(file, `${await readFile(file, "utf8")}\n${harness.badLine}\n`);
      const before = await prefixes(harness.name);
      await expect(harness.start(server.baseUrl, templates)).rejects.toThrow(
        new RegExp(`${harness.template} was rejected:\\n\\S`),
      );
      expect(await prefixes(harness.name)).toEqual(before);
    } finally {
      await rm(templates, { recursive: true, force: true });
    }
  });

  it("lets the server see each client's own address: two clients each get a window of their own", async () => {
    const proxy = await harness.start(server.baseUrl);
    try {
      // Seen as the proxy's one address, the second client would find the first one's request counted.
      for (const client of ["127.0.0.21", "127.0.0.22"]) {
        const reply = await get(`${proxy.url}/api/v1/meta`, client);
        expect([client, reply.status, reply.remaining]).toEqual([client, 200, "59"]);
      }
    } finally {
      await proxy.close();
    }
  });
}

/** One GET on a fresh connection, from `localAddress` when given: its status and RateLimit-Remaining. */
function get(url: string, localAddress?: string): Promise<{ status: number; remaining: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, ...(localAddress ? { localAddress } : {}) }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, remaining: res.headers["ratelimit-remaining"] }),
      );
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.on("error", reject);
    req.end();
  });
}

/** Whether any process of the group `pid` leads is still alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function prefixes(name: string): Promise<string[]> {
  return (await readdir(tmpdir())).filter((entry) => entry.startsWith(`dealkit-${name}-`)).sort();
}
