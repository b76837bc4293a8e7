/**
 * A mutating proxy in front of a real implementation: each planted bug changes one documented
 * behaviour of the answers (or of the request on its way) and nothing else, so the suite can be
 * shown to catch it with the intended check. The upstream connection leaves from an address
 * derived from the client's (127.0.0.N → 127.S.0.N), so per-IP rate limiting still sees
 * distinct clients, and each proxy instance (S) has client IPs of its own upstream.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  /** The client's address as the proxy saw it (IPv4). */
  client: string;
  pathname: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Sent instead of `body` when set: the bytes a mutation compressed. */
  bytes?: Buffer;
}

export interface Mutation {
  /** Answers a request in the upstream's place (a planted limiter's 429), or lets it through. */
  admit?(req: ProxiedRequest): Promise<ProxiedResponse | undefined>;
  /** Rewrites the request before it goes upstream (or answers it directly). */
  request?(req: ProxiedRequest): ProxiedRequest | ProxiedResponse;
  /** Rewrites the upstream answer. */
  response?(req: ProxiedRequest, res: ProxiedResponse): ProxiedResponse;
  /** Upstream source address for a client address (default: same host part in the proxy's own subnet). */
  upstreamAddress?(client: string, counter: number): string;
  /** Takes the answer over at the socket level (a hang, a reset, a trickle); true when it did. */
  sabotage?(req: ProxiedRequest, res: http.ServerResponse): boolean;
}

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

/**
 * The query each request came with, as written (keyed by the request's headers object, which
 * mutations carry along): each entry a mutation kept goes upstream as the client wrote it.
 */
const sentAs = new WeakMap<object, string>();

/** The query to forward: entries as the client wrote them where the mutation kept them, the rest encoded. */
function forwardedQuery(req: ProxiedRequest): string {
  const written = (sentAs.get(req.headers) ?? "").replace(/^\?/, "").split("&").filter(Boolean);
  const readAs = (pair: string) => new URLSearchParams(pair).toString();
  return [...req.query]
    .map(([name, value]) => {
      const encoded = new URLSearchParams([[name, value]]).toString();
      const i = written.findIndex((pair) => readAs(pair) === encoded);
      return i === -1 ? encoded : (written.splice(i, 1)[0] as string);
    })
    .join("&");
}

function forward(
  upstream: URL,
  req: ProxiedRequest,
  method: string,
  localAddress: string,
): Promise<ProxiedResponse> {
  const url = new URL(req.pathname, upstream);
  // Re-encoding would turn a raw `%zz` into `%25zz`: the proxy must not repair what a client sent.
  url.search = forwardedQuery(req);
  // The upstream answers as it is (no coding): mutations edit text, and compress it themselves.
  const { "accept-encoding": _codings, ...rest } = req.headers;
  const headers = { ...rest, host: upstream.host };
  return new Promise((resolve, reject) => {
    const r = http.request(url, { method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
        delete out["content-length"];
        delete out["transfer-encoding"];
        delete out.connection;
        delete out["keep-alive"];
        resolve({
          status: res.statusCode ?? 502,
          headers: out,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      });
    });
    r.on("error", reject);
    r.end();
  });
}

/** Starts a proxy on an ephemeral loopback port; `subnet` (1-250) keeps its client IPs apart upstream. */
export function startProxy(upstreamUrl: string, mutation: Mutation, subnet: number): Promise<Proxy> {
  const upstream = new URL(upstreamUrl);
  let counter = 0;
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? "/", "http://proxy");
      sentAs.set(incoming.headers, url.search);
      const client = (incoming.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
      const received: ProxiedRequest = {
        method: incoming.method ?? "GET",
        client,
        pathname: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
      };
      if (mutation.sabotage?.(received, outgoing)) return;
      const req =
        (await mutation.admit?.(received)) ?? (mutation.request ? mutation.request(received) : received);
      let res: ProxiedResponse;
      if ("status" in req) {
        res = req;
      } else {
        const host = client.split(".").at(-1) ?? "1";
        const local = mutation.upstreamAddress?.(client, counter++) ?? `127.${subnet}.0.${host}`;
        res = await forward(upstream, req, req.method, local);
        res = mutation.response ? mutation.response(req, res) : res;
      }
      outgoing.writeHead(res.status, res.headers);
      outgoing.end(res.bytes ?? res.body);
    } catch (err) {
      outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`proxy: ${(err as Error).message}`);
    }
  });
  return listenOnLoopback(server);
}

/** Listens on an ephemeral loopback port; closing drops every connection (hanging ones too). */
export function listenOnLoopback(server: http.Server): Promise<Proxy> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
