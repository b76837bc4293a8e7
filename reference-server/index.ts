import type { Database } from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import { loadSpec } from "../src/spec/load.ts";
import { compileParameterChecks } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import { createApp } from "./app.ts";
import { accountVerifier } from "./auth.ts";
import { startLive } from "./data/live.ts";
import { offsetFor } from "./data/time.ts";
import { shiftIfStale } from "./db/freshness.ts";
import { readInfo } from "./db/meta.ts";
import { openDatabase } from "./db/open.ts";
import { prewarmFile } from "./db/prewarm.ts";
import { Store } from "./db/store.ts";
import { startMarkingLate } from "./marking-triggers.ts";
import { DEFAULTS, type ServerOptions } from "./options.ts";
import { createRateLimiter } from "./ratelimit/create.ts";
import type { RateLimiter } from "./ratelimit/limiter.ts";

export type { ServerOptions } from "./options.ts";
export { DEFAULTS } from "./options.ts";

export interface BuiltApp {
  /** The Fastify instance, not listening: use app.inject() in tests. */
  app: FastifyInstance;
  spec: Spec;
  /** The server's SQLite connection (benchmarks, tests). */
  db: Database;
  /** The server's reads of it; a write the server makes itself is announced to it (announceWrite). */
  store: Store;
  /** The demo account, when its key was created (or set) by this start: the only time the key is known. */
  demo?: { uid: number; key: string };
  /** How the data was prepared: generated, regenerated, shifted forward in time, or kept. */
  data: "generated" | "regenerated" | "shifted" | "kept";
  close(): Promise<void>;
}

export interface StartedServer {
  url: string;
  port: number;
  demo?: { uid: number; key: string };
  close(): Promise<void>;
}

/** Generated data older than this is moved forward while the server runs (see db/freshness.ts). */
const REFRESH_EVERY_MS = 60_000;
const REFRESH_MIN_AGE_SECONDS = 600;

/** Builds the whole server in process, without a port: database, limiter, app. */
export async function buildApp(options: ServerOptions = {}): Promise<BuiltApp> {
  const spec = await loadSpec();
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const zoneOffset = offsetFor(spec.rankWindows.timezone, nowSeconds());
  // The limiter first: a malformed Redis URL stops the start before the database is touched.
  const limiter = await createLimiter(spec, options);
  // What the start has opened so far: a start that fails closes it all, or the Redis connection
  // and its probes would keep the process alive after the one-line error.
  const opened: { db?: Database; app?: FastifyInstance; refresh?: NodeJS.Timeout; stopLive?: () => void } =
    {};
  const close = async () => {
    clearInterval(opened.refresh);
    opened.stopLive?.();
    await opened.app?.close();
    await limiter?.close();
    if (opened.db?.open) opened.db.close();
  };
  try {
    const dbPath = options.dbPath ?? DEFAULTS.dbPath;
    const { db, demo, data } = openDatabase({
      dbPath,
      size: options.size ?? DEFAULTS.size,
      seed: options.seed ?? DEFAULTS.seed,
      nowSeconds: nowSeconds(),
      categories: spec.categories.items,
      zoneOffset,
      demoKey: options.demoKey ?? process.env.DEALKIT_DEMO_KEY,
    });
    opened.db = db;
    // Before the Store reads its token sets and before listening: the first searches then find
    // the file's pages in the OS page cache instead of waiting on the disk (db/prewarm.ts).
    if (dbPath !== ":memory:") await prewarmFile(dbPath);
    compileParameterChecks(spec);
    const store = new Store(db, now);
    const app = createApp({
      spec,
      context: { spec, store, nowSeconds },
      verify: accountVerifier(db),
      now,
      limiter,
      trustedProxies: options.trustedProxies ?? [],
      logger: options.logger ?? false,
    });
    opened.app = app;
    opened.refresh = setInterval(() => {
      try {
        if (shiftIfStale(db, nowSeconds(), zoneOffset, REFRESH_MIN_AGE_SECONDS) !== 0) store.announceWrite();
      } catch (err) {
        app.log.warn({ err }, "could not move generated data forward");
      }
    }, REFRESH_EVERY_MS);
    opened.refresh.unref();
    if (options.liveEveryMs)
      opened.stopLive = live(
        store,
        spec,
        options.liveEveryMs,
        options.seed ?? DEFAULTS.seed,
        nowSeconds,
        zoneOffset,
      );
    return { app, spec, db, store, demo, data, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Starts live data on generated data (imported data is real: nothing is invented into it). */
function live(
  store: Store,
  spec: Spec,
  everyMs: number,
  seed: number,
  nowSeconds: () => number,
  zoneOffset: number,
) {
  const { db } = store;
  if (readInfo(db).source !== "generated")
    throw new Error("--live needs generated data (this database holds imported data)");
  if (shiftIfStale(db, nowSeconds(), zoneOffset, 1) !== 0) store.announceWrite();
  return startLive(
    db,
    {
      everyMs,
      seed,
      nowSeconds,
      categories: spec.categories.items,
      zoneOffset,
      written: () => store.announceWrite(),
    },
    (err) => console.error(`dealkit: live data: ${(err as Error).message}`),
  );
}

/**
 * Memory, or Redis with memory as the local store while Redis fails (ratelimit/resilient-store.ts):
 * Redis being down never stops a start; a malformed --redis-url does (InvalidRedisUrlError).
 */
async function createLimiter(spec: Spec, options: ServerOptions): Promise<RateLimiter | undefined> {
  if (options.rateLimit === false) return undefined;
  return createRateLimiter({
    policy: {
      limit: options.rateLimit?.limit ?? spec.rateLimit.limit,
      windowSeconds: options.rateLimit?.windowSeconds ?? spec.rateLimit.window_seconds,
    },
    redisUrl: options.redisUrl || undefined,
    redisTimeoutMs: options.redisTimeoutMs,
    maxClients: options.maxClients,
  });
}

/** Starts the reference server on a port; `port: 0` picks a free one. */
export async function startServer(options: ServerOptions = {}): Promise<StartedServer> {
  const built = await buildApp(options);
  // Full collections later and rarer while serving (marking-triggers.ts).
  startMarkingLate();
  const host = options.host ?? DEFAULTS.host;
  try {
    await built.app.listen({ port: options.port ?? DEFAULTS.port, host });
  } catch (err) {
    await built.close();
    throw err;
  }
  const address = built.app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? DEFAULTS.port);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, port, demo: built.demo, close: built.close };
}
