/**
 * A byte-for-byte TCP relay that connects onward from a chosen loopback address. Varnish and httpd
 * cannot choose the address they reach their backend from, and the API server trusts
 * X-Forwarded-For from one address only: the relay sits between them and the server so the server
 * sees the proxy at PROXY_ADDRESS, never at 127.0.0.1 where a test client may be.
 */
import { connect, createServer, type Socket } from "node:net";
import { type ForegroundProcess, HOST, hostPort, PROXY_ADDRESS } from "./foreground.ts";

export interface Relay {
  /** Where the proxy connects to: 127.0.0.1:PORT. */
  address: string;
  close(): Promise<void>;
}

/** Relays every connection to `target` (host:port), opening the onward one from `localAddress`. */
export function startRelay(target: string, localAddress: string): Promise<Relay> {
  const [host, port] = splitHostPort(target);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const server = createServer((inbound) => {
    const outbound = connect({ host, port, localAddress });
    track(inbound);
    track(outbound);
    // Either side's end or error ends both: the proxy then sees the server close, as it would directly.
    inbound.on("error", () => outbound.destroy());
    outbound.on("error", () => inbound.destroy());
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const bound = server.address();
      if (typeof bound !== "object" || !bound) return reject(new Error("relay has no address"));
      resolve({
        address: `${HOST}:${bound.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}

/**
 * Starts a relay from PROXY_ADDRESS to `upstream` (http://HOST:PORT), then the proxy `start` makes
 * with the relay's host and port as its backend; the proxy's close() closes the relay after it.
 */
export async function behindRelay(
  upstream: string,
  start: (relayHost: string, relayPort: string) => Promise<ForegroundProcess>,
): Promise<ForegroundProcess> {
  const relay = await startRelay(hostPort(upstream), PROXY_ADDRESS);
  const [relayHost, relayPort] = splitHostPort(relay.address);
  try {
    const proxy = await start(relayHost, String(relayPort));
    return {
      ...proxy,
      close: async () => {
        await proxy.close();
        await relay.close();
      },
    };
  } catch (error) {
    await relay.close();
    throw error;
  }
}

function splitHostPort(target: string): [string, number] {
  const at = target.lastIndexOf(":");
  const port = Number(target.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port <= 0)
    throw new Error(`relay target must be host:port, not ${target}`);
  return [target.slice(0, at), port];
}
