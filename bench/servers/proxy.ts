/**
 * Child-process entry: one address in front of several instances. A round-robin TCP proxy (one
 * upstream per accepted connection) that connects to the upstream from the client's own loopback
 * address, so each instance sees the real client IP on its socket without trusting any
 * X-Forwarded-For. A control port answers GET /counts with connections per upstream.
 */
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

const { upstreams } = JSON.parse(process.argv[2] ?? "{}") as { upstreams: { host: string; port: number }[] };
const counts = upstreams.map(() => 0);
let next = 0;
const sockets = new Set<Socket>();

const proxy = createServer((client) => {
  const i = next++ % upstreams.length;
  counts[i] = (counts[i] ?? 0) + 1;
  const target = upstreams[i] as { host: string; port: number };
  const upstream = connect({ ...target, localAddress: client.remoteAddress });
  for (const s of [client, upstream]) {
    sockets.add(s);
    s.setNoDelay(true);
    s.once("close", () => sockets.delete(s));
    s.on("error", () => {
      client.destroy();
      upstream.destroy();
    });
  }
  client.pipe(upstream);
  upstream.pipe(client);
});

const control = createHttpServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ counts }));
});

const listen = (s: {
  listen: (port: number, host: string, cb: () => void) => unknown;
  address: () => unknown;
}) =>
  new Promise<number>((resolve) =>
    s.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port)),
  );
const port = await listen(proxy);
const controlPort = await listen(control);
console.log(
  `READY ${JSON.stringify({ url: `http://127.0.0.1:${port}`, control: `http://127.0.0.1:${controlPort}` })}`,
);
process.once("SIGTERM", () => {
  for (const s of sockets) s.destroy();
  control.close();
  proxy.close(() => process.exit(0));
});
