/**
 * What every proxy harness of test/stack/ must do, as one law suite each harness test file runs:
 * it starts in front of the reference server and stops leaving no process and no prefix; a config
 * its program rejects throws the program's own words and leaves nothing behind; the server sees
 * each client's own address through it (X-Forwarded-For from the one address it trusts); and what
 * the recommended template says the proxy still answers itself, it does.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { httpGet } from "../../mocks/http-get.ts";
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
  /** What the recommended template says the proxy answers itself, by its defaults, not the API. */
  ownAnswers: [string, OwnAnswer][];
}

export interface OwnAnswer {
  path: string;
  headers?: Record<string, string>;
  status: number;
  /** Its Content-Type; undefined: none (an empty body). */
  contentType: RegExp | undefined;
}

export function harnessLaws(harness: Harness): void {
  let server: Target;
  beforeAll(async () => {
    server = await startBundledServer({ trustedProxies: [PROXY_ADDRESS] });
  });
  afterAll(() => server?.close());

  it("passes a request through to the server, and close() leaves no process and no prefix", async () => {
    const proxy = await harness.start(server.baseUrl);
    expect((await httpGet(`${proxy.url}/api/v1/meta`)).status).toBe(200);
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
        const reply = await httpGet(`${proxy.url}/api/v1/meta`, { localAddress: client });
        expect([client, reply.status, reply.headers["ratelimit-remaining"]]).toEqual([client, 200, "59"]);
      }
    } finally {
      await proxy.close();
    }
  });

  ownAnswersLaw(harness, () => server.baseUrl);
}

/** The cases of ownAnswers, each from an address of its own (no case counts against another). */
function ownAnswersLaw(harness: Harness, upstream: () => string): void {
  it.each(harness.ownAnswers.map(([name, answer], i) => [name, answer, `127.0.0.${31 + i}`] as const))(
    "answers %s itself, not the API",
    async (_name, answer, client) => {
      const proxy = await harness.start(upstream());
      try {
        const reply = await httpGet(`${proxy.url}${answer.path}`, {
          headers: answer.headers ?? {},
          localAddress: client,
        });
        expect(reply.status).toBe(answer.status);
        if (answer.contentType) expect(reply.headers["content-type"]).toMatch(answer.contentType);
        else expect([reply.headers["content-type"], reply.text]).toEqual([undefined, ""]);
        // Not the API's: its answers all carry RateLimit-* (a proxy may write CORS on its own, as
        // httpd's recommended.conf does on its 400s: x-request-gate).
        expect(reply.headers["ratelimit-limit"]).toBeUndefined();
      } finally {
        await proxy.close();
      }
    },
  );
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
