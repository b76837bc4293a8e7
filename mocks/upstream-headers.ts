/**
 * Headers of Prism's answer the layer must not relay: its own CORS set (it adds
 * Allow-Credentials and a placeholder Expose-Headers), its schema-generated RateLimit-* values,
 * its violation report, and hop-by-hop headers the layer recomputes.
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
    n === "date"
  );
}
