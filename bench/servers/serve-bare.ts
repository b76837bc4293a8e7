/**
 * What every bare node:http child of the bench does once its handler is set: listen on loopback,
 * tell the parent its URL (`READY {"url"}`, as procs.ts's startChild waits for), and close its
 * connections and exit on SIGTERM.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export function serveBare(server: Server): void {
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}` })}`);
  });
  process.once("SIGTERM", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
