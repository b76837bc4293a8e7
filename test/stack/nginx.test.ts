/**
 * The nginx harness (test/stack/nginx.ts) and what each config of deploy/nginx/ does in front of the
 * real reference server: the recommended one keeps the API's contract (gzip, the client's address,
 * problem+json for nginx's own errors), the three faulty ones break it the way they claim to.
 * Skipped without an nginx binary, but in CI, where a missing nginx fails (test/required-tool.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { Agent, createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { requireTool } from "../required-tool.ts";
import { type NginxInstance, nginxAvailable, startNginx, TEMPLATES_DIR } from "./nginx.ts";

const available = requireTool({
  name: "nginx",
  available: nginxAvailable(),
  install: "apt-get install -y nginx",
  needs: "the nginx stack tests",
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Get {
  headers?: Record<string, string>;
  localAddress?: string;
  method?: string;
  agent?: Agent;
}

/** One plain node:http request (no fetch: Content-Encoding stays visible); a fresh connection by default. */
function get(url: string, options: Get = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        agent: options.agent ?? false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} within 10 s`)));
    req.on("error", reject);
    req.end();
  });
}

/** Bytes written as they are on a fresh connection; resolves with everything read until the peer closes. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("no close within 10 s")));
    socket.on("connect", () => socket.write(text));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
}

function json(reply: Reply): Record<string, unknown> {
  return JSON.parse(reply.body.toString("utf8")) as Record<string, unknown>;
}

function varies(reply: Reply): string[] {
  const vary = reply.headers.vary;
  return (Array.isArray(vary) ? vary.join(",") : (vary ?? "")).split(",").map((v) => v.trim().toLowerCase());
}

function expectProblem(reply: Reply, status: number, type: string): void {
  expect(reply.status).toBe(status);
  expect(reply.headers["content-type"]).toMatch(/^application\/problem\+json(;|$)/);
  expect(reply.headers["access-control-allow-origin"]).toBe("*");
  expect(json(reply)).toMatchObject({ type, status, title: expect.any(String), detail: expect.any(String) });
}

function refuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe.runIf(available)("nginx in front of the reference server", () => {
  /** The reference server as recommended: its own limit on, nginx (127.0.0.1) trusted for X-Forwarded-For. */
  let api: Target;

  beforeAll(async () => {
    api = await startBundledServer({ trustedProxies: ["127.0.0.1"] });
  });
  afterAll(async () => {
    await api?.close();
  });

  describe("the harness", () => {
    it("renders the template, serves on loopback, and close() stops nginx and removes its prefix", async () => {
      const nginx = await startNginx("recommended", api.baseUrl);
      try {
        expect(nginx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const rendered = readFileSync(join(nginx.prefix, "conf", "recommended.conf"), "utf8");
        expect(rendered).not.toMatch(/\{\{/);
        expect(rendered).toContain(`listen ${nginx.url.slice("http://".length)};`);
        const health = await get(`${nginx.url}/healthz`);
        expect(health.status).toBe(200);
      } finally {
        await nginx.close();
      }
      expect(await refuses(nginx.url)).toBe(true);
      expect(existsSync(nginx.prefix)).toBe(false);
      expect(() => process.kill(nginx.pid, 0)).toThrow();
      // Still readable after close(), and nothing went wrong.
      expect(await nginx.errorLog()).not.toMatch(/\[(emerg|alert|crit)\]/);
    });

    it("throws nginx -t's own message for a config nginx rejects, and leaves no prefix behind", async () => {
      const templates = await mkdtemp(join(tmpdir(), "dealkit-templates-"));
      const before = (await readdir(tmpdir())).filter((name) => name.startsWith("dealkit-nginx-")).length;
      try {
        await writeFile(
          join(templates, "recommended.conf"),
          "worker_processes 1;\npid {{PREFIX}}/nginx.pid;\nevents {}\nhttp { no_such_directive on; }\n",
        );
        await expect(startNginx("recommended", api.baseUrl, { templatesDir: templates })).rejects.toThrow(
          /nginx -t rejected recommended\.conf:[\s\S]*unknown directive "no_such_directive"/,
        );
        const after = (await readdir(tmpdir())).filter((name) => name.startsWith("dealkit-nginx-")).length;
        expect(after).toBe(before);
      } finally {
        await rm(templates, { recursive: true, force: true });
      }
    });

    it("close() kills the whole process group when nginx ignores SIGQUIT", async () => {
      const nginx = await startNginx("recommended", api.baseUrl, { stopTimeoutMs: 300 });
      // A stopped master cannot act on SIGQUIT; its worker keeps serving meanwhile.
      process.kill(nginx.pid, "SIGSTOP");
      expect((await get(`${nginx.url}/healthz`)).status).toBe(200);
      const started = Date.now();
      await nginx.close();
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await refuses(nginx.url)).toBe(true);
      expect(existsSync(nginx.prefix)).toBe(false);
    });
  });

  describe("recommended.conf", () => {
    let nginx: NginxInstance;
    beforeAll(async () => {
      nginx = await startNginx("recommended", api.baseUrl);
    });
    afterAll(async () => {
      await nginx?.close();
    });

    const big = "/api/v1/rank?act=shiwutian&limit=300";

    it("gzips a big answer for a client that accepts gzip, with Vary: Accept-Encoding", async () => {
      const reply = await get(`${nginx.url}${big}`, { headers: { "Accept-Encoding": "gzip" } });
      expect(reply.status).toBe(200);
      expect(reply.headers["content-encoding"]).toBe("gzip");
      expect(varies(reply)).toContain("accept-encoding");
      const decoded = gunzipSync(reply.body);
      expect(decoded.length).toBeGreaterThan(reply.body.length);
      const body = JSON.parse(decoded.toString("utf8")) as { data: unknown[] };
      expect(body.data.length).toBeGreaterThan(50);
    });

    it("answers identity to a client that does not ask for gzip, still with Vary: Accept-Encoding", async () => {
      const reply = await get(`${nginx.url}${big}`);
      expect(reply.status).toBe(200);
      expect(reply.headers["content-encoding"]).toBeUndefined();
      expect(varies(reply)).toContain("accept-encoding");
      expect((json(reply) as { data: unknown[] }).data.length).toBeGreaterThan(50);
    });

    it("compresses in nginx only: the server is asked for identity, so a client offering only br gets identity", async () => {
      const reply = await get(`${nginx.url}${big}`, { headers: { "Accept-Encoding": "br" } });
      expect(reply.status).toBe(200);
      expect(reply.headers["content-encoding"]).toBeUndefined();
      expect((json(reply) as { data: unknown[] }).data.length).toBeGreaterThan(50);
    });

    it("passes the client's address in X-Forwarded-For: two loopback clients get independent limits", async () => {
      const remaining = async (
        localAddress: string,
        headers: Record<string, string> = {},
      ): Promise<number> => {
        const reply = await get(`${nginx.url}/api/v1/meta`, { localAddress, headers });
        expect(reply.status).toBe(200);
        return Number(reply.headers["ratelimit-remaining"]);
      };
      const first = await remaining("127.0.0.2");
      // Were the server counting nginx's own address, this would be first - 1.
      expect(await remaining("127.0.0.3")).toBe(first);
      expect(await remaining("127.0.0.2")).toBe(first - 1);
      // A client's forged X-Forwarded-For is kept on the left of what nginx appends: not believed.
      const forged = await remaining("127.0.0.4", { "X-Forwarded-For": "203.0.113.7" });
      expect(await remaining("127.0.0.4", { "X-Forwarded-For": "203.0.113.8" })).toBe(forged - 1);
    });

    it("passes request lines up to 16 KB to the API: a long query gets the API's own 400, not nginx's 414", async () => {
      for (const length of [4100, 12_000]) {
        const reply = await get(`${nginx.url}/api/v1/search?q=${"a".repeat(length)}`);
        expectProblem(reply, 400, "/problems/invalid-parameter");
        // The API's answer, not nginx's: it carries the rate-limit headers and names the query.
        expect(reply.headers["ratelimit-limit"], `${length} characters`).toBeDefined();
        expect(json(reply)).toMatchObject({ errors: [{ name: "query" }] });
      }
    });

    it("answers nginx's own 414/494 (request line or header over 16 KB) as 431 problem+json with CORS", async () => {
      const longLine = await get(`${nginx.url}/api/v1/search?q=${"a".repeat(17_000)}`);
      expectProblem(longLine, 431, "/problems/headers-too-large");
      const longHeader = await get(`${nginx.url}/api/v1/meta`, { headers: { "X-Long": "a".repeat(17_000) } });
      expectProblem(longHeader, 431, "/problems/headers-too-large");
    });

    it("answers a request nginx cannot parse as 400 problem+json with CORS", async () => {
      const answer = await raw(nginx.url, "get /api/v1/meta HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
      expect(answer).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
      expect(answer).toContain('"type":"/problems/malformed-request"');
    });
  });

  describe("recommended.conf in front of a plain upstream (no Vary, no compression of its own)", () => {
    let upstream: Server;
    let front: NginxInstance;
    beforeAll(async () => {
      const body = JSON.stringify({ data: "x".repeat(2000) });
      upstream = createServer((_req, res) => {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
        res.end(body);
      });
      await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
      const address = upstream.address();
      if (!address || typeof address !== "object") throw new Error("no upstream address");
      front = await startNginx("recommended", `http://127.0.0.1:${address.port}`);
    });
    afterAll(async () => {
      await front?.close();
      if (upstream?.listening) {
        upstream.closeAllConnections();
        await new Promise<void>((resolve) => upstream.close(() => resolve()));
      }
    });

    it("adds Vary: Accept-Encoding itself (gzip_vary) to an identity answer that could have been gzipped", async () => {
      const reply = await get(`${front.url}/`);
      expect(reply.status).toBe(200);
      expect(reply.headers["content-encoding"]).toBeUndefined();
      expect(varies(reply)).toEqual(["accept-encoding"]);
    });

    it("answers 502 problem+json with CORS once the upstream has stopped", async () => {
      await new Promise<void>((resolve) => {
        upstream.close(() => resolve());
        upstream.closeAllConnections();
      });
      const reply = await get(`${front.url}/api/v1/meta`);
      expectProblem(reply, 502, "/problems/internal");
      expect(await front.errorLog()).toMatch(/connect\(\) failed \(111: Connection refused\)/);
    });
  });

  describe("limit-req.conf (faulty)", () => {
    let unlimited: Target;
    let nginx: NginxInstance;
    beforeAll(async () => {
      unlimited = await startBundledServer({ rateLimit: false });
      nginx = await startNginx("limit-req", unlimited.baseUrl);
    });
    afterAll(async () => {
      await nginx?.close();
      await unlimited?.close();
    });

    /** Sequential requests from one address over one kept-alive connection; the statuses in order. */
    async function burst(localAddress: string, methods: string[]): Promise<{ replies: Reply[]; ms: number }> {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress });
      const started = Date.now();
      const replies: Reply[] = [];
      try {
        for (const method of methods) {
          const headers: Record<string, string> =
            method === "OPTIONS"
              ? { Origin: "https://example.com", "Access-Control-Request-Method": "GET" }
              : {};
          replies.push(await get(`${nginx.url}/api/v1/meta`, { agent, method, headers }));
        }
      } finally {
        agent.destroy();
      }
      return { replies, ms: Date.now() - started };
    }

    it("answers the 62nd rapid request from one address with nginx's 429 page: text/html, no Retry-After, no CORS", async () => {
      const { replies, ms } = await burst("127.0.0.6", Array(62).fill("GET"));
      // 1 + burst 60 pass; nginx's bucket drains one request a second, so this needs the 62 within 1 s.
      expect(
        replies.slice(0, 61).map((r) => r.status),
        `61 requests in ${ms} ms`,
      ).toEqual(Array(61).fill(200));
      const refused = replies[61] as Reply;
      expect(refused.status, `62 requests in ${ms} ms`).toBe(429);
      expect(refused.headers["content-type"]).toBe("text/html");
      expect(refused.headers["retry-after"]).toBeUndefined();
      expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
      expect(refused.headers["ratelimit-limit"]).toBeUndefined();
      expect(await nginx.errorLog()).toMatch(/limiting requests, excess: 6\d\.\d+ by zone "api"/);
    });

    it("counts CORS preflights: after 61 OPTIONS, the next GET is refused", async () => {
      const { replies, ms } = await burst("127.0.0.7", [...Array(61).fill("OPTIONS"), "GET"]);
      expect(
        replies.slice(0, 61).map((r) => r.status),
        `${ms} ms`,
      ).toEqual(Array(61).fill(204));
      expect((replies[61] as Reply).status, `${ms} ms`).toBe(429);
    });
  });

  describe("cache.conf (faulty)", () => {
    let nginx: NginxInstance;
    beforeAll(async () => {
      nginx = await startNginx("cache", api.baseUrl);
    });
    afterAll(async () => {
      await nginx?.close();
    });

    it("serves the personal stream answered for a valid X-API-Key to a request without a key (HIT)", async () => {
      const account = api.account;
      if (!account) throw new Error("the bundled server has no demo account");
      const url = `${nginx.url}/api/v1/my/follow?uid=${account.uid}`;
      const local = { localAddress: "127.0.0.8" };
      // Without a key the API refuses; 401 is not cached (proxy_cache_valid 200 only).
      const anonymous = await get(url, local);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers["x-cache-status"]).toBe("MISS");
      const owner = await get(url, { ...local, headers: { "X-API-Key": account.key } });
      expect(owner.status).toBe(200);
      expect(owner.headers["x-cache-status"]).toBe("MISS");
      const leaked = await get(url, local);
      expect(leaked.status).toBe(200);
      expect(leaked.headers["x-cache-status"]).toBe("HIT");
      expect(json(leaked)).toEqual(json(owner));
      expect(json(leaked)).toMatchObject({ meta: { uid: Number(account.uid) } });
      // A HIT replays the stored answer's headers: a stale RateLimit-Remaining, a request never counted.
      expect(leaked.headers["ratelimit-remaining"]).toBe(owner.headers["ratelimit-remaining"]);
    });
  });

  describe("cache.conf with the upstream's Cache-Control honoured (control)", () => {
    let templates: string;
    let nginx: NginxInstance;
    beforeAll(async () => {
      // cache.conf minus proxy_ignore_headers: nginx then obeys the server's Cache-Control.
      templates = await mkdtemp(join(tmpdir(), "dealkit-templates-"));
      for (const name of await readdir(TEMPLATES_DIR)) {
        const text = readFileSync(join(TEMPLATES_DIR, name), "utf8");
        const kept = name === "cache.conf" ? text.replace(/^\s*proxy_ignore_headers .*$/m, "") : text;
        if (name === "cache.conf") expect(kept).not.toBe(text);
        await writeFile(join(templates, name), kept);
      }
      nginx = await startNginx("cache", api.baseUrl, { templatesDir: templates });
    });
    afterAll(async () => {
      await nginx?.close();
      await rm(templates, { recursive: true, force: true });
    });

    it("stores nothing: personal answers (private, no-store) and public ones (no-cache) always reach the API", async () => {
      const account = api.account;
      if (!account) throw new Error("the bundled server has no demo account");
      const local = { localAddress: "127.0.0.9" };
      const personal = `${nginx.url}/api/v1/my/follow?uid=${account.uid}`;
      const owner = await get(personal, { ...local, headers: { "X-API-Key": account.key } });
      expect(owner.status).toBe(200);
      expect(owner.headers["cache-control"]).toBe("private, no-store");
      const anonymous = await get(personal, local);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers["x-cache-status"]).toBe("MISS");
      const statuses: unknown[] = [];
      for (let i = 0; i < 2; i++) {
        const reply = await get(`${nginx.url}/api/v1/meta`, local);
        expect(reply.headers["cache-control"]).toBe("no-cache");
        statuses.push(reply.headers["x-cache-status"]);
      }
      expect(statuses).toEqual(["MISS", "MISS"]);
    });
  });

  describe("error-pages.conf (faulty)", () => {
    let nginx: NginxInstance;
    beforeAll(async () => {
      nginx = await startNginx("error-pages", api.baseUrl);
    });
    afterAll(async () => {
      await nginx?.close();
    });

    it("answers a 4100-character query with nginx's own 414 page: text/html, no CORS", async () => {
      const reply = await get(`${nginx.url}/api/v1/search?q=${"a".repeat(4100)}`);
      expect(reply.status).toBe(414);
      expect(reply.headers["content-type"]).toBe("text/html");
      expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
      expect(reply.body.toString("utf8")).toContain("414 Request-URI Too Large");
    });
  });
});
