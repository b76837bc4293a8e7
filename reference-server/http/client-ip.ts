import { isIP } from "node:net";

/**
 * The client address the rate limit counts (x-rate-limit client_ip). The socket address, always,
 * unless the socket peer is a configured trusted proxy: then X-Forwarded-For is read from the
 * right, skipping trusted proxies, and the first other hop is the client. A client cannot forge
 * its way past the limit by sending X-Forwarded-For itself, since only the right-most untrusted
 * hop is believed. A hop that is no address ends the chain and is counted under its own text:
 * putting it in the proxy's bucket would let one odd client exhaust everyone's limit.
 */
export function clientIp(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: ReadonlySet<string>,
): string {
  const peer = peerOf(socketAddress ?? "");
  if (!trusted.has(peer) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const text = (hops[i] as string).trim();
    const hop = hopAddress(text);
    // Bounded, so a long header cannot make a long key.
    if (hop === undefined) return `x-forwarded-for:${text.slice(0, 64)}`;
    if (!trusted.has(hop)) return hop;
  }
  // Every hop is one of our proxies: the request comes from the left-most of them.
  return hopAddress((hops[0] as string).trim()) ?? peer;
}

// The last socket address and its normalized form: one connection's requests (and a load
// generator's connections from one address) all carry the same one, so it is normalized once
// rather than by a regular expression on every request.
let lastAddress = "";
let lastPeer = "unknown";

function peerOf(address: string): string {
  if (address !== lastAddress) {
    lastPeer = normalize(address) || "unknown";
    lastAddress = address;
  }
  return lastPeer;
}

/** A hop's address: an IP, ADDRESS:PORT or [IPv6]:PORT (as some proxies write it); else undefined. */
function hopAddress(hop: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(hop);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(hop);
  const address = bracketed?.[1] ?? withPort?.[1] ?? hop;
  return isIP(address) !== 0 ? normalize(address) : undefined;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 address: one client, one counter. */
export function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped?.[1] ?? address).toLowerCase();
}
