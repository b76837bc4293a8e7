/**
 * A pass-through HTTP proxy on a loopback port that writes down every exchange a browser has
 * with the API behind it. Playwright does not report CORS preflights (the browser sends them on
 * its own), so this is where a test sees that a request was preflighted, with which requested
 * headers, and what the preflight was answered.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  origin: string | undefined;
  /** Access-Control-Request-Headers of a preflight, lowercased by the browser. */
  requestedHeaders: string | undefined;
  status: number;
}

export interface RecordingProxy {
  /** http://127.0.0.1:PORT: what the page calls instead of the target. */
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        exchanges.push({
          method: req.method ?? "",
          url: req.url ?? "",
          origin: req.headers.origin,
          requestedHeaders: req.headers["access-control-request-headers"],
          status: answer.statusCode ?? 0,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", (err) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`recording proxy: ${err.message}`);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
