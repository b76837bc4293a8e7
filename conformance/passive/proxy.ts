/**
 * `dealkit proxy`: a forwarding proxy in front of a real deployment that judges the traffic
 * passing through it and never changes a passing answer (same status, headers but hop-by-hop
 * ones, same body bytes). The body streams to the client as it arrives, teed up to the cap for
 * judging after the answer is complete; with `errors`, the answer is held (up to the cap) until
 * it is judged, and one that breaks the contract is replaced by a problem+json 502 naming the
 * rules. Nothing is sent of the proxy's own: every request is a client's.
 */
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { DEFAULT_LIMITS } from "../http/client.ts";
import { BodyTap, type TrafficBytes, trafficOfBytes } from "./body.ts";
import { PROBLEM_HEADERS, proxyProblem, violationProblem } from "./errors.ts";
import { endToEnd, failureOf, headerRecord, withoutHeaders } from "./headers.ts";
import type { Judging, TrafficVerdict } from "./judging.ts";
import type { Traffic } from "./traffic.ts";

/** Methods a request may be sent again with (RFC 9110 idempotent, and never with a body here). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS"]);

export interface ProxyOptions {
  /** The deployment: scheme, host, port, and a path prefix if the API is served under one. */
  upstream: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Answer a violating exchange with a 502 problem+json (the body is held until judged). */
  errors?: boolean;
  /** Add the client's address to X-Forwarded-For (off: the upstream sees the proxy as the client). */
  forwardedFor?: boolean;
  /** Bytes of a body kept for judging (default: the suite's body cap). */
  cap?: number;
  /**
   * Where exchanges are judged (a worker thread for the CLI: forwarding never waits for it). It
   * gets each body as the bytes kept, and decodes them itself: forwarding makes no string of them.
   */
  judging: Judging;
  /**
   * Every exchange once complete, its body decoded, before it is judged (recordings, the ledger):
   * only a proxy given this decodes bodies in its own thread.
   */
  onExchange?(traffic: Traffic): void;
  /** Every exchange's verdict once judged (or not), for the live console and the findings log. */
  onObserved?(verdict: TrafficVerdict): void;
  /** Every complete exchange once, its body as the bytes kept (the client judge: conformance/clients/). */
  onClientExchange?(exchange: TrafficBytes): void;
}

export interface RunningProxy {
  url: string;
  /** Stops accepting, waits for the exchanges in flight, and closes. */
  close(): Promise<void>;
}

/** How long closing waits for the exchanges in flight. */
const CLOSE_GRACE_MS = 5000;

/** The path and query of an absolute-form request target (a client configured with an HTTP proxy). */
function pathAndQuery(absolute: string): string {
  try {
    const u = new URL(absolute);
    return `${u.pathname}${u.search}`;
  } catch {
    return "/";
  }
}

export function startPassiveProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, "");
  const secure = upstream.protocol === "https:";
  // Idle sockets are closed before a usual server-side keep-alive timeout (Node's is 5 s) can.
  const agentOptions = { keepAlive: true, timeout: 4000 };
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const cap = options.cap ?? DEFAULT_LIMITS.maxBodyBytes;
  const inFlight = new Set<Promise<void>>();
  /**
   * An exchange handed to the judge. Defined out here, not in `handle`: while an exchange waits
   * for its verdict only this function's frame is kept, not the request's closures with their
   * sockets, messages and parsers (a full backlog of them held tens of MB).
   */
  const judge = async (full: TrafficBytes): Promise<TrafficVerdict | undefined> => {
    options.onClientExchange?.(full);
    options.onExchange?.(trafficOfBytes(full));
    // A judge that failed costs the verdict, never the answer.
    const verdict = await options.judging.observe(full).catch(() => undefined);
    if (verdict) options.onObserved?.(verdict);
    return verdict;
  };

  const handle = (incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> =>
    new Promise<void>((done) => {
      const startedAt = Date.now() / 1000;
      const client = (incoming.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
      const method = incoming.method ?? "GET";
      const requested = incoming.url ?? "/";
      // Origin-form as sent; an absolute-form target (a client configured with an HTTP proxy) keeps its path and query.
      const target = requested.startsWith("/") ? requested : pathAndQuery(requested);
      const url = `${upstream.origin}${basePath}${target}`;
      // The upstream's own Host; X-Forwarded-For gains the client only when told.
      const replaced = new Set(["host", ...(options.forwardedFor ? ["x-forwarded-for"] : [])]);
      const requestHeaders = [
        ...withoutHeaders(endToEnd(incoming.rawHeaders), replaced),
        "Host",
        upstream.host,
      ];
      // Transfer-Encoding is hop-by-hop, but a chunked request body still needs chunked framing
      // upstream: Node adds none for GET/DELETE/OPTIONS, and the raw body would then reach the
      // upstream as the start of another request.
      if (incoming.headers["transfer-encoding"] !== undefined)
        requestHeaders.push("Transfer-Encoding", "chunked");
      if (options.forwardedFor) {
        const prior = incoming.headers["x-forwarded-for"];
        requestHeaders.push("X-Forwarded-For", prior ? `${prior}, ${client}` : client);
      }
      const tap = new BodyTap(cap);
      let settled = false;
      const finish = (
        traffic: Omit<TrafficBytes, "method" | "url" | "requestHeaders" | "client" | "startedAt">,
      ) => {
        if (settled) return;
        settled = true;
        const full: TrafficBytes = {
          method,
          url,
          requestHeaders: headerRecord(incoming.rawHeaders),
          ...(client ? { client } : {}),
          startedAt,
          ...traffic,
        };
        tap.release();
        return full;
      };
      const observe = (full: TrafficBytes | undefined) => (full ? judge(full) : Promise.resolve(undefined));

      // The client gave up: the upstream request goes too, and nothing is judged.
      outgoing.once("close", () => {
        if (!outgoing.writableFinished) {
          upstreamReq.destroy();
          if (!settled) {
            settled = true;
            options.judging.skip("the client closed the connection before the whole answer");
          }
        }
        done();
      });

      const onResponse = (res: http.IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const raw = endToEnd(res.rawHeaders);
        const responseHeaders = headerRecord(res.rawHeaders);
        outgoing.sendDate = false;
        // The bytes kept go to the judge as they are (decoded there, after the answer is sent).
        const complete = () =>
          finish({
            status,
            responseHeaders,
            kept: tap.take(responseHeaders["content-encoding"]),
            receivedAt: Date.now() / 1000,
          });
        const broken = (err: NodeJS.ErrnoException) => {
          const full = finish({
            status: 0,
            responseHeaders,
            receivedAt: Date.now() / 1000,
            failure: failureOf(err, true),
          });
          outgoing.destroy();
          void observe(full);
        };
        res.on("error", broken);
        res.on("close", () => {
          if (!res.complete)
            broken(
              Object.assign(new Error("the upstream closed the connection mid-body"), {
                code: "ECONNRESET",
              }),
            );
        });

        if (!options.errors) {
          // Streaming: the client gets every chunk as it comes; judging waits for the end.
          outgoing.writeHead(status, res.statusMessage, raw);
          res.on("data", (chunk: Buffer) => tap.push(chunk));
          res.pipe(outgoing);
          res.on("end", () => void observe(complete()));
          return;
        }
        // --errors: held until judged, up to the cap; past it the answer streams unjudged.
        const held: Buffer[] = [];
        let streaming = false;
        res.on("data", (chunk: Buffer) => {
          tap.push(chunk);
          if (streaming) {
            if (!outgoing.write(chunk)) {
              res.pause();
              outgoing.once("drain", () => res.resume());
            }
            return;
          }
          held.push(chunk);
          if (tap.over) {
            streaming = true;
            outgoing.writeHead(status, res.statusMessage, raw);
            for (const c of held.splice(0)) outgoing.write(c);
          }
        });
        res.on("end", async () => {
          if (streaming) {
            outgoing.end();
            void observe(complete());
            return;
          }
          const verdict = await observe(complete());
          const own = verdict?.findings.filter((f) => f.own) ?? [];
          if (own.length === 0) {
            outgoing.writeHead(status, res.statusMessage, raw);
            outgoing.end(Buffer.concat(held));
            return;
          }
          const body = JSON.stringify(violationProblem(method, target, status, own));
          outgoing.sendDate = true;
          outgoing.writeHead(502, PROBLEM_HEADERS);
          outgoing.end(body);
        });
      };
      const bodyless =
        (incoming.headers["content-length"] ?? "0") === "0" &&
        incoming.headers["transfer-encoding"] === undefined;
      let upstreamReq: http.ClientRequest;
      const send = (retried: boolean): void => {
        upstreamReq = (secure ? https : http).request(
          url,
          { method, headers: requestHeaders, agent },
          onResponse,
        );
        upstreamReq.on("error", (err: NodeJS.ErrnoException) => {
          // A kept-alive socket the upstream closed just as it was reused: not the API's doing, so
          // not a finding; a request without a body is sent again once, as the suite's client does.
          if (
            !retried &&
            upstreamReq.reusedSocket &&
            err.code === "ECONNRESET" &&
            bodyless &&
            !outgoing.headersSent &&
            IDEMPOTENT.has(method)
          ) {
            send(true);
            return;
          }
          if (settled || outgoing.headersSent) {
            outgoing.destroy();
            return;
          }
          const failure = failureOf(err, false);
          const full = finish({ status: 0, responseHeaders: {}, receivedAt: Date.now() / 1000, failure });
          void observe(full);
          outgoing.writeHead(502, PROBLEM_HEADERS);
          outgoing.end(
            JSON.stringify(
              proxyProblem(
                "upstream-unreachable",
                `dealkit proxy could not get an answer from ${upstream.origin}: ${err.message}`,
              ),
            ),
          );
        });
        if (bodyless) upstreamReq.end();
        else incoming.pipe(upstreamReq);
      };
      send(false);
    });

  const server = http.createServer((incoming, outgoing) => {
    const pending = handle(incoming, outgoing);
    inFlight.add(pending);
    void pending.finally(() => inFlight.delete(pending));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      const { port, address } = server.address() as AddressInfo;
      const host = address.includes(":") ? `[${address}]` : address;
      resolve({
        url: `http://${host}:${port}`,
        close: async () => {
          const closed = new Promise<void>((r) => server.close(() => r()));
          server.closeIdleConnections();
          // Exchanges in flight finish (a client that stopped reading is not waited for long).
          let timer: NodeJS.Timeout | undefined;
          const grace = new Promise<void>((r) => {
            timer = setTimeout(r, CLOSE_GRACE_MS);
          });
          await Promise.race([Promise.allSettled([...inFlight]), grace]);
          clearTimeout(timer);
          server.closeAllConnections();
          await closed;
          agent.destroy();
        },
      });
    });
  });
}
