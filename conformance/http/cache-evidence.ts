/**
 * Signs that a cache, not the API, gave an answer from its storage: `Age` (RFC 9111 §5.1: the
 * seconds since the origin made or validated it), RFC 9211's `Cache-Status` with `hit`, and the
 * headers caches and CDNs add on their own (nginx's `$upstream_cache_status` as X-Cache-Status,
 * Varnish and Squid X-Cache, Cloudflare CF-Cache-Status...) saying HIT or STALE.
 */
const STATUS_HEADERS = [
  "x-cache-status",
  "x-cache",
  "cf-cache-status",
  "x-proxy-cache",
  "x-cache-lookup",
  "cdn-cache",
];
const FROM_STORAGE = /\b(HIT|STALE|UPDATING)\b/i;

/** What says the answer came from a cache's storage, as "Header: value" lines; empty when nothing does. */
export function cacheEvidence(headers: Record<string, string>): string[] {
  const out: string[] = [];
  const age = Number(headers.age);
  if (Number.isInteger(age) && age >= 1) out.push(`Age: ${headers.age}`);
  const status = headers["cache-status"];
  if (status && /;\s*hit\b/i.test(status)) out.push(`Cache-Status: ${status}`);
  for (const name of STATUS_HEADERS) {
    const value = headers[name];
    if (value && FROM_STORAGE.test(value)) out.push(`${name}: ${value}`);
  }
  return out;
}

/**
 * What says an answer came from a cache's storage: its headers (cacheEvidence), or an earlier
 * answer to the same URL it repeats (runner/replays.ts), one line each; empty when nothing does.
 */
export function storageEvidence(e: { headers: Record<string, string>; replayed?: string }): string[] {
  return [...cacheEvidence(e.headers), ...(e.replayed ? [`it repeats ${e.replayed}`] : [])];
}

/** The directives of a Cache-Control value, lower-cased, `name` or `name=value` (quotes dropped). */
export function directives(cacheControl: string | undefined): Set<string> {
  return new Set(
    (cacheControl ?? "")
      .split(",")
      .map((d) =>
        d
          .trim()
          .toLowerCase()
          .replace(/\s*=\s*"?([^"]*)"?$/, "=$1"),
      )
      .filter(Boolean),
  );
}
