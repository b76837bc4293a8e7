import net from "node:net";

/** True when the target host is this machine's loopback (where source spreading is allowed). */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === "localhost" || /^127\./.test(host) || host === "[::1]";
}

/** True when a socket to the target can leave from `address` (Linux routes all of 127/8 to lo). */
function canBind(baseUrl: string, address: string): Promise<boolean> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port, localAddress: address });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Source addresses to spread requests over, each a distinct client IP to the server: against
 * an IPv4 loopback target, 127.0.0.10 upward (when the OS lets us bind them); otherwise the
 * default address only (`undefined`), paced at the advertised rate.
 */
export async function sourceAddresses(baseUrl: string, wanted: number): Promise<(string | undefined)[]> {
  const host = new URL(baseUrl).hostname;
  if (!/^127\./.test(host) || wanted <= 1) return [undefined];
  const first = "127.0.0.10";
  if (!(await canBind(baseUrl, first))) return [undefined];
  return Array.from({ length: Math.min(wanted, 240) }, (_, i) => `127.0.0.${10 + i}`);
}
