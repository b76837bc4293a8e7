import { connect, createServer } from "node:net";

/** A free loopback port, from the OS (bind to 0, read it, release it). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Polls until something accepts TCP connections on host:port (Prism takes about 3 s to start:
 * polling returns as soon as it is up instead of sleeping a guessed time). Rejects after
 * `timeoutMs`, or as soon as `failed()` reports the process died.
 */
export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  failed: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = failed();
    if (reason) throw new Error(reason);
    if (await canConnect(host, port)) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
