/**
 * dealkit proxy: silent in front of correct implementations (the reference server, the mock),
 * loud with --errors in front of a broken one, and never a change to a passing answer: status,
 * headers but hop-by-hop ones, body bytes, streamed as they come, with bounded memory.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import { type AddressInfo, connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_ACCOUNT } from "../../mocks/auth.ts";
import { startMock } from "../../mocks/start.ts";
import { startProxy } from "../planted/proxy.ts";
import { PLANTED } from "../planted/variants.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { type PassiveSetup, passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { inlineJudging } from "./judging.ts";
import { judgeCommand, proxyCommand } from "./main.ts";
import { ordinaryClient } from "./ordinary-client.ts";
import { type ProxyOptions, type RunningProxy, startPassiveProxy } from "./proxy.ts";

let server: Target;
let setup: PassiveSetup;
/** A server whose limit load and byte comparisons do not reach (judged against that limit). */
const ROOMY = { limit: 1_000_000, windowSeconds: 60 };
let roomy: Target;
let roomySetup: PassiveSetup;

beforeAll(async () => {
  server = await startBundledServer();
  setup = await passiveSetup();
  roomy = await startBundledServer({ rateLimit: ROOMY });
  roomySetup = await passiveSetup({ rate: ROOMY });
});
afterAll(async () => {
  await server?.close();
  await roomy?.close();
});

/**
 * For the tests that run a whole client's traffic (or start Prism): seconds on an idle machine,
 * but a loaded 2-core one has taken 30 s. A bound on hanging, not on speed.
 */
const HEAVY_MS = 120_000;

const account = () => {
  const a = server.account as { uid: string; key: string };
  return { uid: Number(a.uid), key: a.key };
};

async function through(
  upstream: string,
  options: Partial<ProxyOptions> = {},
): Promise<{ proxy: RunningProxy; judge: TrafficJudge }> {
  const judge = new TrafficJudge(upstream === roomy.baseUrl ? roomySetup : setup, {
    target: upstream,
    baseUrl: upstream,
  });
  const proxy = await startPassiveProxy({ upstream, judging: inlineJudging(judge), ...options });
  return { proxy, judge };
}

interface Answer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? "",
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const HOP_BY_HOP = /^(connection|keep-alive|transfer-encoding)$/i;
/** Headers as sent, hop-by-hop ones and the given volatile ones left out. */
const endToEnd = (raw: string[], volatile: RegExp = /^$/) =>
  raw.flatMap((h, i) => (i % 2 === 0 && !HOP_BY_HOP.test(h) && !volatile.test(h) ? [[h, raw[i + 1]]] : []));

/** A stub upstream answering exactly what a test scripts, per path. */
function stub(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer(handler);
  return new Promise((resolve) =>
    s.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            s.closeAllConnections();
            s.close(() => done());
          }),
      }),
    ),
  );
}

describe("in front of correct implementations", () => {
  it(
    "the reference server: an ordinary client's traffic gives 0 findings, every exchange judged",
    async () => {
      const { proxy, judge } = await through(server.baseUrl);
      const run = await ordinaryClient(proxy.url, account());
      await proxy.close();
      const report = judge.report();
      expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
      expect(report.passed).toBe(true);
      expect(report.mode).toBe("passive");
      expect(report.passive).toMatchObject({ exchanges: run.calls, judged: run.calls, findings: 0 });
      // Evidence accounting: the rules the traffic exercised pass with evidence, the burst's is passive.
      const byName = new Map(report.checks.map((c) => [c.name, c]));
      expect(byName.get("rule:rank-content-omitted")).toMatchObject({ status: "pass" });
      expect(byName.get("rule:my-follow-credentials")?.informative).toBeGreaterThan(0);
      expect(byName.get("relation:search-pages-disjoint")).toMatchObject({ status: "pass" });
      expect(byName.get("rate-limit")?.reason).toMatch(
        /^passive: the rate limit needs the suite's own 429 burst/,
      );
    },
    HEAVY_MS,
  );

  it(
    "the mock: an ordinary client's traffic gives 0 findings",
    async () => {
      const mock = await startMock({ port: 0 });
      try {
        const { proxy, judge } = await through(mock.url);
        await ordinaryClient(proxy.url, { uid: DEFAULT_DEMO_ACCOUNT.uid, key: DEFAULT_DEMO_ACCOUNT.apiKey });
        await proxy.close();
        const report = judge.report();
        expect(report.checks.filter((c) => c.status === "fail").flatMap((c) => c.violations)).toEqual([]);
      } finally {
        await mock.close();
      }
    },
    HEAVY_MS,
  );

  it(
    "the reference server under load: 200 requests, 20 at a time, 0 findings",
    async () => {
      const { proxy, judge } = await through(roomy.baseUrl);
      const paths = [
        "/api/v1/feed?limit=5",
        "/api/v1/feed?limit=50",
        "/api/v1/rank?act=jintian",
        "/api/v1/search?q=%E5%88%B8",
        "/api/v1/search?q=%E5%88%B8&page=2",
        "/api/v1/meta",
        "/api/v1/shenghuo?with_cates=1",
      ];
      let next = 0;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < 200) statuses.push((await get(`${proxy.url}${paths[next++ % paths.length]}`)).status);
        }),
      );
      await proxy.close();
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      const report = judge.report();
      expect(report.passive).toMatchObject({ exchanges: 200, judged: 200 });
      expect(report.checks.filter((c) => c.status === "fail").flatMap((c) => c.violations)).toEqual([]);
    },
    HEAVY_MS,
  );
});

describe("--errors", () => {
  it("answers a violating exchange with a 502 problem+json naming the rule; passing ones pass", async () => {
    const bug = PLANTED.find((b) => b.name === "rank-content-at-small-limit");
    if (!bug) throw new Error("planted bug renamed");
    const planted = await startProxy(server.baseUrl, bug.mutation, 201);
    const { proxy } = await through(planted.url, { errors: true });
    try {
      const bad = await get(`${proxy.url}/api/v1/rank?act=jintian&limit=5`);
      expect(bad.status).toBe(502);
      const problem = JSON.parse(bad.body.toString()) as Record<string, unknown>;
      expect(problem).toMatchObject({
        type: "urn:dealkit:proxy:contract-violation",
        status: 502,
        checks: ["rule:rank-content-omitted"],
        upstreamStatus: 200,
      });
      expect(problem.detail).toMatch(/rule:rank-content-omitted/);
      expect(bad.rawHeaders).toContain("application/problem+json");
      const good = await get(`${proxy.url}/api/v1/feed?limit=3`);
      expect(good.status).toBe(200);
    } finally {
      await proxy.close();
      await planted.close();
    }
  });
});

describe("a passing answer is never changed", () => {
  const scripted: Record<string, (res: http.ServerResponse) => void> = {
    "/plain": (res) => {
      res.writeHead(200, "Fine Thanks", [
        "Content-Type",
        "application/json; charset=utf-8",
        "X-Mixed-Case",
        "kept",
        "set-cookie",
        "a=1",
        "set-cookie",
        "b=2",
        "Cache-Control",
        "max-age=5",
        "Date",
        "Thu, 01 Jan 2026 00:00:00 GMT",
        "Content-Length",
        "12",
        "Keep-Alive",
        "timeout=1",
      ]);
      res.end('{"a":"é12"}');
    },
    "/chunked": (res) => {
      res.writeHead(200, {
        "content-type": "application/octet-stream",
        date: "Thu, 01 Jan 2026 00:00:00 GMT",
      });
      res.write(Buffer.from([0, 1, 2, 0xff, 0xfe]));
      res.end(Buffer.from([0xc3, 0x28, 10]));
    },
    "/gzip": (res) => {
      const body = gzipSync('{"data":[]}');
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": String(body.length),
        date: "Thu, 01 Jan 2026 00:00:00 GMT",
      });
      res.end(body);
    },
    "/empty": (res) => {
      res.writeHead(204, { date: "Thu, 01 Jan 2026 00:00:00 GMT", "x-why": "nothing" });
      res.end();
    },
  };
  let upstream: Awaited<ReturnType<typeof stub>>;
  beforeAll(async () => {
    upstream = await stub((req, res) => {
      const answer = scripted[req.url ?? ""];
      if (answer) answer(res);
      else res.writeHead(404).end();
    });
  });
  afterAll(() => upstream.close());

  it.each([
    ["streaming", false],
    ["--errors", true],
  ])(
    "%s: status, reason, headers (hop-by-hop aside) and body bytes as the upstream sent them",
    async (_m, errors) => {
      const { proxy } = await through(upstream.url, { errors });
      try {
        for (const path of Object.keys(scripted)) {
          const direct = await get(`${upstream.url}${path}`);
          const proxied = await get(`${proxy.url}${path}`);
          expect([proxied.status, proxied.statusMessage], path).toEqual([
            direct.status,
            direct.statusMessage,
          ]);
          expect(endToEnd(proxied.rawHeaders), path).toEqual(endToEnd(direct.rawHeaders));
          expect(proxied.body.equals(direct.body), path).toBe(true);
        }
      } finally {
        await proxy.close();
      }
    },
  );

  it.each([
    ["streaming", false],
    ["--errors", true],
  ])(
    "%s: the reference server's answers, byte for byte (its rate-limit counters aside)",
    async (_m, errors) => {
      const { proxy } = await through(roomy.baseUrl, { errors });
      try {
        for (const path of [
          "/api/v1/meta",
          "/api/v1/rank?act=jintian&limit=3",
          "/api/v1/search?q=",
          "/rss.php",
        ]) {
          const direct = await get(`${roomy.baseUrl}${path}`);
          const proxied = await get(`${proxy.url}${path}`);
          const volatile = /^(date|ratelimit-remaining|ratelimit-reset)$/i;
          expect(proxied.status, path).toBe(direct.status);
          expect(endToEnd(proxied.rawHeaders, volatile), path).toEqual(endToEnd(direct.rawHeaders, volatile));
          // rank's meta.window ends now: compare what does not move with the clock.
          const stable = (b: Buffer) => b.toString().replace(/"to":[0-9]+/, '"to":0');
          expect(stable(proxied.body), path).toBe(stable(direct.body));
        }
      } finally {
        await proxy.close();
      }
    },
  );
});

describe("X-Forwarded-For", () => {
  it("is added only when told, after any the client sent", async () => {
    const echo = await stub((req, res) => res.end(JSON.stringify(req.headers["x-forwarded-for"] ?? null)));
    try {
      const plain = await through(echo.url);
      expect((await get(`${plain.proxy.url}/x`)).body.toString()).toBe("null");
      expect((await get(`${plain.proxy.url}/x`, { "x-forwarded-for": "10.0.0.9" })).body.toString()).toBe(
        '"10.0.0.9"',
      );
      await plain.proxy.close();
      const told = await through(echo.url, { forwardedFor: true });
      expect((await get(`${told.proxy.url}/x`)).body.toString()).toBe('"127.0.0.1"');
      expect((await get(`${told.proxy.url}/x`, { "x-forwarded-for": "10.0.0.9" })).body.toString()).toBe(
        '"10.0.0.9, 127.0.0.1"',
      );
      await told.proxy.close();
    } finally {
      await echo.close();
    }
  });
});

describe("large bodies", () => {
  const MB = 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 0x61);

  it("10 MB streams to the client as it comes, unchanged, and is not judged past the cap", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    let sentAfterFirst = false;
    const big = await stub(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 16; i++) res.write(chunk);
      await released; // the rest only once the client has seen the first megabyte
      sentAfterFirst = true;
      for (let i = 16; i < 160; i++) if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      res.end();
    });
    const { proxy, judge } = await through(big.url);
    try {
      const hash = createHash("sha256");
      let bytes = 0;
      let firstBeforeRest = false;
      await new Promise<void>((resolve, reject) => {
        http.get(`${proxy.url}/api/v1/rank?act=jintian`, { agent: false }, (res) => {
          res.on("data", (c: Buffer) => {
            hash.update(c);
            bytes += c.length;
            if (bytes >= MB && !sentAfterFirst) {
              firstBeforeRest = true;
              release();
            }
          });
          res.on("end", resolve);
          res.on("error", reject);
        });
      });
      expect(firstBeforeRest).toBe(true);
      expect(bytes).toBe(10 * MB);
      const want = createHash("sha256");
      for (let i = 0; i < 160; i++) want.update(chunk);
      expect(hash.digest("hex")).toBe(want.digest("hex"));
      await proxy.close();
      expect(judge.report().passive?.notJudged).toEqual({ "body over 8388608 bytes": 1 });
    } finally {
      await proxy.close();
      await big.close();
    }
  });

  it.each([
    ["streaming", false],
    ["--errors", true],
  ])(
    "%s: a client that stops reading holds the upstream back (backpressure, no buffering in the proxy)",
    async (_m, errors) => {
      let written = 0;
      let ended = false;
      /** Writes the upstream had to wait for (write() said its buffers were full), and drains since. */
      let stalls = 0;
      let drains = 0;
      const waiting = new Set<() => void>();
      const wake = () => {
        for (const w of waiting) w();
      };
      const big = await stub(async (req, res) => {
        // A marker: answered at once, to prove the proxy has been round its event loop.
        if (req.url === "/marker") return void res.end("{}");
        res.writeHead(200, { "content-type": "application/json" });
        for (let i = 0; i < 1600 && !res.destroyed; i++) {
          written += chunk.length;
          if (!res.write(chunk)) {
            stalls++;
            wake();
            await new Promise((r) => res.once("drain", r));
            drains++;
          }
        }
        res.end();
        ended = true;
        wake();
      });
      const { proxy } = await through(big.url, { errors, cap: MB });
      const req = http.get(`${proxy.url}/api/v1/rank?act=jintian`, { agent: false }, (res) => res.pause());
      const stalledOrEnded = () =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (!ended && stalls === drains) return;
            waiting.delete(check);
            resolve();
          };
          waiting.add(check);
          check();
        });
      try {
        // Waits for the steady state, not for a guessed time: the upstream is stalled and stays
        // so while a marker request makes the round trip through the proxy and its upstream. A
        // proxy that buffered would keep reading, each read a drain, until all 100 MB were written.
        for (;;) {
          await stalledOrEnded();
          const before = drains;
          await get(`${proxy.url}/marker`);
          if (ended || drains === before) break;
        }
        // Of a 100 MB body, what the kernel's socket buffers on two hops hold (about 10 MB on
        // loopback) and the cap held for judging: the proxy reads no faster than the client.
        expect(ended).toBe(false);
        expect(written).toBeLessThan(32 * MB);
      } finally {
        req.destroy();
        await proxy.close();
        await big.close();
      }
    },
  );
});

describe("an upstream that does not answer", () => {
  it("is a 502 problem+json for the client and an answers-complete finding", async () => {
    const gone = await stub((_req, res) => res.end());
    const url = gone.url;
    await gone.close();
    const { proxy, judge } = await through(url);
    const answer = await get(`${proxy.url}/api/v1/meta`);
    await proxy.close();
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body.toString())).toMatchObject({
      type: "urn:dealkit:proxy:upstream-unreachable",
    });
    const failed = judge.report().checks.find((c) => c.name === "answers-complete");
    expect(failed?.violations[0]?.code).toBe("answers-complete/unreachable");
  });
});

describe("dealkit proxy, the command", () => {
  it(
    "judges in a worker thread, streams findings, writes every report, and its HAR judges the same",
    async () => {
      const bug = PLANTED.find((b) => b.name === "h5-dropped");
      if (!bug) throw new Error("planted bug renamed");
      const planted = await startProxy(server.baseUrl, bug.mutation, 203);
      const dir = await mkdtemp(join(tmpdir(), "dealkit-proxy-command-"));
      const lines: string[] = [];
      const file = (name: string) => join(dir, name);
      try {
        const run = await proxyCommand({
          upstream: planted.url,
          port: 0,
          reports: [
            { format: "json", path: file("report.json") },
            { format: "junit", path: file("report.xml") },
            { format: "markdown", path: file("report.md") },
          ],
          findingsLog: file("findings.ndjson"),
          recordHar: file("traffic.har"),
          record: file("traffic.ndjson"),
          out: (line) => lines.push(line),
        });
        await ordinaryClient(run.url, account());
        const { code, report } = await run.stop();
        expect(code).toBe(1);
        const failed = report.checks.filter((c) => c.status === "fail").map((c) => c.name);
        expect(failed).toEqual(["response-schema", "rule:shenghuo-h5-on-every-record"]);
        // Live: one console line per kind of finding, with its curl line; every one in the NDJSON.
        const live = lines.filter((l) => l.startsWith("✗ "));
        expect(live.length).toBe(report.checks.flatMap((c) => c.violations).length);
        expect(live[0]).toMatch(/ \| curl -i (--compressed )?(-H '[^']*' )*'/);
        const findings = (await readFile(file("findings.ndjson"), "utf8")).trim().split("\n");
        expect(findings.length).toBe(report.passive?.findings);
        expect(JSON.parse(findings[0] ?? "{}")).toMatchObject({ kind: "finding", own: true });
        expect(await readFile(file("report.md"), "utf8")).toMatch(/exchanges seen/);
        expect(await readFile(file("report.xml"), "utf8")).toMatch(
          /<property name="exchanges" value="[0-9]+"\/>/,
        );
        for (const recording of ["traffic.har", "traffic.ndjson"]) {
          const offline = await judgeCommand({ file: file(recording), reports: [], out: () => {} });
          expect(offline.report.checks.filter((c) => c.status === "fail").map((c) => c.name)).toEqual(failed);
        }
      } finally {
        await planted.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
    HEAVY_MS,
  );
});

describe("request framing", () => {
  it("a chunked request body stays that request's body: nothing reaches the upstream as another request", async () => {
    const seen: string[] = [];
    const upstream = await stub((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        seen.push(`${req.method} ${req.url} ${body.length}`);
        res.end("{}");
      });
    });
    const { proxy } = await through(upstream.url);
    try {
      const port = new URL(proxy.url).port;
      const smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
      const chunk = `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`;
      // A marker request follows on the same connection. Requests on one connection are answered
      // in order, and an answer comes after its upstream request: once the marker's answer is
      // here, a smuggled request would have reached the upstream. No waiting for a guessed time.
      const marker = "GET /marker HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1");
        let text = "";
        socket.on("data", (c: Buffer) => {
          text += c.toString();
        });
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
        socket.write(
          `GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}${marker}`,
        );
      });
      // Two answers ("{}" each, no line break before the second status line), no third.
      expect(reply.match(/HTTP\/1\.1 \d{3}/g)).toEqual(["HTTP/1.1 200", "HTTP/1.1 200"]);
      expect(seen).toEqual([`GET /api/v1/meta ${smuggled.length}`, "GET /marker 0"]);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe("a kept-alive upstream socket closed under the proxy", () => {
  it("is sent again once (a request without a body): the client gets the API's answer, no finding", async () => {
    // Answers the first request of each connection, then resets it on the next one: the race of a
    // keep-alive timeout, made certain.
    const server = createServer((socket) => {
      let answered = false;
      socket.on("data", () => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        socket.write(
          "HTTP/1.1 404 Not Found\r\nContent-Type: application/problem+json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}",
        );
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { proxy, judge } = await through(upstream);
    try {
      const first = await get(`${proxy.url}/nope`);
      const second = await get(`${proxy.url}/nope`);
      expect([first.status, second.status]).toEqual([404, 404]);
      const report = judge.report();
      expect(report.checks.filter((c) => c.name === "answers-complete").map((c) => c.status)).not.toContain(
        "fail",
      );
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
