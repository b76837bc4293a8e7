import { isIP } from "node:net";

/**
 * The client address the rate limit counts. The socket address, always, unless the socket peer
 * is a configured trusted proxy: then X-Forwarded-For is read from the right, skipping trusted
 * proxies, and the first address not ours is the client. A client cannot forge its way past the
 * limit by sending X-Forwarded-For itself, since only the right-most untrusted hop is believed.
 */
export function clientIp(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: ReadonlySet<string>,
): string {
  const peer = normalize(socketAddress ?? "") || "unknown";
  if (!trusted.has(peer) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map((h) => normalize(h.trim()))
    .filter((h) => isIP(h) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trusted.has(hop)) return hop;
  }
  return hops[0] ?? peer;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 address: one client, one counter. */
export function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped?.[1] ?? address).toLowerCase();
}
