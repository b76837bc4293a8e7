/**
 * Headers of Prism's answer the layer must not relay: its own CORS set (it adds
 * Allow-Credentials and a placeholder Expose-Headers), its schema-generated RateLimit-* values,
 * its violation report, the caching and coding headers (the layer sets them by x-caching and
 * x-compression), and hop-by-hop headers the layer recomputes.
 */
export function isReplacedUpstreamHeader(name: string): boolean {
  const n = name.toLowerCase();
  return (
    n.startsWith("access-control-") ||
    n.startsWith("ratelimit-") ||
    n === "sl-violations" ||
    n === "content-length" ||
    n === "content-type" ||
    n === "connection" ||
    n === "keep-alive" ||
    n === "transfer-encoding" ||
    // fetch decodes Prism's body, and the layer sets caching and coding by the spec itself.
    n === "content-encoding" ||
    n === "vary" ||
    n === "cache-control" ||
    n === "date"
  );
}
