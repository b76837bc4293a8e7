/**
 * The --redis-url check. ioredis accepts almost any string (a bare word becomes a Unix socket
 * path or a host name) and then fails later, over and over, at connection time: a typo must
 * instead stop the start with one clear line. The message never repeats the URL itself, which
 * may carry a password.
 */
export class InvalidRedisUrlError extends Error {
  override name = "InvalidRedisUrlError";
}

const FORM = "redis://[user:password@]host[:port][/db] or rediss://... (TLS)";

export interface RedisTarget {
  /** The URL, unchanged, for ioredis. */
  url: string;
  /** host:port for log lines and the store state: no user name, no password. */
  address: string;
}

export function parseRedisUrl(raw: string): RedisTarget {
  const bad = (what: string) => new InvalidRedisUrlError(`invalid Redis URL (${what}): expected ${FORM}`);
  if (!URL.canParse(raw)) throw bad("not a URL");
  const url = new URL(raw);
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw bad(`scheme ${url.protocol}`);
  if (!url.hostname) throw bad("no host");
  if (url.port === "0") throw bad("port 0");
  if (!/^\/?([0-9]+)?$/.test(url.pathname)) throw bad("the path must be a database number");
  const port = url.port || "6379";
  return { url: raw, address: `${url.hostname}:${port}` };
}
