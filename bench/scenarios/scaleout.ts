import { request } from "node:http";
import { join } from "node:path";
import type { BenchContext } from "../context.ts";
import { benchDatabase } from "../data.ts";
import { type LoadRun, load, summarize } from "../load.ts";
import { type Child, REPO, startChild, urlOf } from "../procs.ts";
import { type RedisServer, redisAvailable, startRedis } from "../redis.ts";
import { formatNumber, formatRatio, ratio } from "../stats.ts";
import type { Section } from "../types.ts";
import { ENDPOINTS, RAISED_LIMIT } from "./throughput-plan.ts";

const SERVER = join(REPO, "bench/servers/reference.ts");
const PROXY = join(REPO, "bench/servers/proxy.ts");
/** The address the limit proof sends from: one client, distinct from the load's 127.0.0.1. */
const CLIENT = "127.0.0.77";

const portOf = (c: Child) => Number(new URL(urlOf(c)).port);
const upstreamsOf = (servers: Child[]) => ({
  upstreams: servers.map((s) => ({ host: "127.0.0.1", port: portOf(s) })),
});

/** One GET on a new connection from `localAddress`: the proxy sends each to the next instance. */
function getFrom(url: string, localAddress: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, agent: false }, (res) => {
      res.resume();
      res.once("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers["retry-after"] as string | undefined,
        }),
      );
    });
    req.once("error", reject);
    req.end();
  });
}

interface Proof {
  store: string;
  statuses: number[];
  perInstance: number[];
  retryAfter?: string;
}

/** 61 requests from one client, alternating over two instances; the 61st must be refused when they share Redis. */
async function limitProof(
  dbOptions: object,
  redisUrl: string | undefined,
  clientAddress: string,
): Promise<Proof> {
  const options = { ...dbOptions, ...(redisUrl ? { redisUrl } : {}) };
  const servers = [await startChild(SERVER, options), await startChild(SERVER, options)];
  const proxy = await startChild(PROXY, upstreamsOf(servers));
  try {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 61; i++) {
      const r = await getFrom(`${urlOf(proxy)}/api/v1/meta`, clientAddress);
      statuses.push(r.status);
      retryAfter ??= r.retryAfter;
    }
    const { counts } = (await (await fetch(proxy.ready.control as string)).json()) as { counts: number[] };
    return {
      store: redisUrl ? "shared Redis" : "memory, per instance",
      statuses,
      perInstance: counts,
      retryAfter,
    };
  } finally {
    await Promise.all([proxy, ...servers].map((c) => c.stop()));
  }
}

const TITLE = "Scale-out: two instances sharing one Redis rate-limit store";

export async function scaleout(ctx: BenchContext): Promise<Section> {
  if (!redisAvailable()) return notRun();
  const db = await benchDatabase(20_000);
  const dbOptions = { dbPath: db.path, size: db.size, clockStartSeconds: db.referenceTime };
  const redis: RedisServer = await startRedis();
  try {
    const summaries = await throughputBehindProxy(ctx, dbOptions, redis.url);
    // The limit: the spec's 60 per 60 s, fresh instances, one client address.
    const shared = await limitProof(dbOptions, redis.url, CLIENT);
    const separate = await limitProof(dbOptions, undefined, "127.0.0.78");
    ctx.log(
      `  limit proof: shared Redis 61st → ${shared.statuses[60]}; memory per instance 61st → ${separate.statuses[60]}`,
    );
    return scaleoutSection(ctx, summaries, shared, separate);
  } finally {
    await redis.stop();
  }
}

function notRun(): Section {
  return {
    id: "scaleout",
    title: "Scale-out: two instances, one Redis",
    method: "Not run.",
    tables: [],
    targets: [
      { name: "per-IP limit holds across two instances", met: null, measured: "redis-server not installed" },
    ],
    notes: ["Install it with `apt-get install -y redis-server`."],
    data: {},
  };
}

/** Throughput: one and two instances behind the same kind of proxy, Redis store, limit raised; runs interleaved. */
async function throughputBehindProxy(ctx: BenchContext, dbOptions: object, redisUrl: string) {
  const loadOptions = { ...dbOptions, redisUrl, rateLimit: RAISED_LIMIT };
  const children: Child[] = [];
  try {
    const s1 = await startChild(SERVER, loadOptions);
    children.push(s1);
    const s2 = await startChild(SERVER, loadOptions);
    children.push(s2);
    const one = await startChild(PROXY, upstreamsOf([s1]));
    children.push(one);
    const two = await startChild(PROXY, upstreamsOf([s1, s2]));
    children.push(two);
    const path = ENDPOINTS[0].path;
    const targets = {
      "1 instance direct": urlOf(s1),
      "1 instance via proxy": urlOf(one),
      "2 instances via proxy": urlOf(two),
    };
    const runs: Record<string, LoadRun[]> = {};
    for (const url of Object.values(targets))
      await load({ url: url + path, connections: ctx.connections, durationSeconds: ctx.warmupSeconds });
    for (let i = 0; i < ctx.runs; i++) {
      for (const [name, url] of Object.entries(targets)) {
        const run = await load({
          url: url + path,
          connections: ctx.connections,
          durationSeconds: ctx.seconds,
        });
        runs[name] = [...(runs[name] ?? []), run];
      }
    }
    const summaries = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, summarize(v)]));
    ctx.log(
      `  scale-out: ${Object.entries(summaries)
        .map(([k, s]) => `${k} ${formatNumber(s.rps)}`)
        .join(", ")} req/s`,
    );
    return summaries;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

/** A limit proof as a table row: store, requests per instance, 200s, first 429, the 61st, Retry-After. */
function proofRow(p: Proof) {
  const ok = p.statuses.filter((s) => s === 200).length;
  const first429 = p.statuses.indexOf(429);
  return [
    p.store,
    p.perInstance.join(" + "),
    ok,
    first429 === -1 ? "none" : `#${first429 + 1}`,
    String(p.statuses[60]),
    p.retryAfter ?? "—",
  ];
}

function scaleoutSection(
  ctx: BenchContext,
  summaries: Record<string, ReturnType<typeof summarize>>,
  shared: Proof,
  separate: Proof,
): Section {
  const holds = shared.statuses.slice(0, 60).every((s) => s === 200) && shared.statuses[60] === 429;
  const twoOverOne = ratio(
    summaries["2 instances via proxy"]?.rps ?? Number.NaN,
    summaries["1 instance via proxy"]?.rps ?? Number.NaN,
  );
  return {
    id: "scaleout",
    title: TITLE,
    method:
      "Two reference server processes (each its own SQLite connection to the 20k data, Redis store) behind one address: a " +
      "round-robin TCP proxy of the bench's (bench/servers/proxy.ts) that connects upstream from the client's own loopback " +
      `address, so each instance counts the real client IP. Throughput: rank-20, ${ctx.connections} connections, ` +
      `${ctx.runs} × ${ctx.seconds} s interleaved, limit raised. Limit proof: fresh instances with the spec's 60 per 60 s, ` +
      "61 requests from one address, each on a new connection (so they alternate between the instances).",
    tables: [
      {
        columns: ["target", "req/s", "p50 / p99 ms"],
        rows: Object.entries(summaries).map(([k, s]) => [k, formatNumber(s.rps), `${s.p50} / ${s.p99}`]),
      },
      {
        caption: "61 requests from one client within a minute",
        columns: [
          "rate-limit store",
          "requests per instance",
          "answered 200",
          "first 429",
          "61st status",
          "Retry-After",
        ],
        rows: [proofRow(shared), proofRow(separate)],
      },
    ],
    targets: [
      {
        name: "per-IP limit holds across two instances (61st request refused)",
        met: holds,
        measured: `61st → ${shared.statuses[60]} (Retry-After ${shared.retryAfter ?? "—"}), requests split ${shared.perInstance.join(" + ")}; without Redis the 61st → ${separate.statuses[60]}`,
      },
    ],
    notes: [
      `Two instances over one: ${formatRatio(twoOverOne)}. On 2 cores shared by the load generator, the proxy, Redis and both instances, a second instance cannot add CPU: this measures that sharing the limit through Redis works under load and what it costs, not how far it scales on real hardware.`,
    ],
    data: { summaries, shared, separate },
  };
}
