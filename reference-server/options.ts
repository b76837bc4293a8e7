/** Options of the reference server, in process (startServer/buildApp) and on the command line. */
export interface ServerOptions {
  /** Default 8080; 0 = an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default ".data/dealkit.db"; ":memory:" for a throw-away database. */
  dbPath?: string;
  /** Generated alerts (default 20 000). */
  size?: number;
  /** Generator seed (default 20261125). */
  seed?: number;
  /** Injectable clock, ms (default Date.now). */
  now?: () => number;
  /** Defaults from the spec's x-rate-limit; false disables the limit and its headers (benchmarks). */
  rateLimit?: { limit?: number; windowSeconds?: number } | false;
  /** Socket addresses whose X-Forwarded-For is believed. */
  trustedProxies?: string[];
  /** Share the rate-limit windows through Redis (several instances behind one address). */
  redisUrl?: string;
  /**
   * The longest a request waits for Redis (ms, default 50); past it, and while Redis stays
   * unavailable, each instance counts in its own memory (see README, "when Redis fails").
   */
  redisTimeoutMs?: number;
  /** Structured request logs (pino) on stdout. Default false in process, true from the CLI. */
  logger?: boolean;
  /** The demo account's API key (32 lowercase hex); by default a random one is made with the database. */
  demoKey?: string;
  /** Cap on the clients the in-memory rate-limit store tracks. */
  maxClients?: number;
  /** Live data: a new alert every this many milliseconds (generated data only). */
  liveEveryMs?: number;
}

export const DEFAULTS = {
  port: 8080,
  host: "127.0.0.1",
  dbPath: ".data/dealkit.db",
  size: 20_000,
  seed: 20_261_125,
} as const;
