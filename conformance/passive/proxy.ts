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

/** What every exchange of one proxy shares. */
interface Forwarding {
  options: ProxyOptions;
  upstream: URL;
  basePath: string;
  secure: boolean;
  agent: http.Agent;
  cap: number;
}

/** One client exchange on its way through the proxy. */
interface Passage {
  incoming: http.IncomingMessage;
  outgoing: http.ServerResponse;
  startedAt: number;
  client: string;
  method: string;
  /** The request target as the client sent it (origin-form). */
  target: string;
  url: string;
  requestHeaders: string[];
  tap: BodyTap;
  /** Judged or given up on: an exchange is handed to the judge once at most. */
  settled: boolean;
  upstreamReq?: http.ClientRequest;
}

type Outcome = Omit<TrafficBytes, "method" | "url" | "requestHeaders" | "client" | "startedAt">;

export function startPassiveProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(options.upstream);
  const secure = upstream.protocol === "https:";
  // Idle sockets are closed before a usual server-side keep-alive timeout (Node's is 5 s) can.
  const agentOptions = { keepAlive: true, timeout: 4000 };
  const f: Forwarding = {
    options,
    upstream,
    basePath: upstream.pathname.replace(/\/+$/, ""),
    secure,
    agent: secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions),
    cap: options.cap ?? DEFAULT_LIMITS.maxBodyBytes,
  };
  const inFlight = new Set<Promise<void>>();
  const server = http.createServer((incoming, outgoing) => {
    const pending = handle(f, incoming, outgoing);
    inFlight.add(pending);
    void pending.finally(() => inFlight.delete(pending));
  });
  return listen(server, f, inFlight);
}

/**
 * An exchange handed to the judge. A top-level function, not a closure of the exchange: while an
 * exchange waits for its verdict only this frame is kept, not the request's closures with their
 * sockets, messages and parsers (a full backlog of them held tens of MB).
 */
async function judge(options: ProxyOptions, full: TrafficBytes): Promise<TrafficVerdict | undefined> {
  options.onClientExchange?.(full);
  options.onExchange?.(trafficOfBytes(full));
  // A judge that failed costs the verdict, never the answer.
  const verdict = await options.judging.observe(full).catch(() => undefined);
  if (verdict) options.onObserved?.(verdict);
  return verdict;
}

function observe(f: Forwarding, full: TrafficBytes | undefined): Promise<TrafficVerdict | undefined> {
  return full ? judge(f.options, full) : Promise.resolve(undefined);
}

/** One exchange, forwarded; resolves once the client's side of it is closed. */
function handle(f: Forwarding, incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
  return new Promise<void>((done) => {
    const p = openPassage(f, incoming, outgoing);
    // The client gave up: the upstream request goes too, and nothing is judged.
    outgoing.once("close", () => {
      if (!outgoing.writableFinished) {
        p.upstreamReq?.destroy();
        if (!p.settled) {
          p.settled = true;
          f.options.judging.skip("the client closed the connection before the whole answer");
        }
      }
      done();
    });
    sendUpstream(f, p, false);
  });
}

function openPassage(f: Forwarding, incoming: http.IncomingMessage, outgoing: http.ServerResponse): Passage {
  const startedAt = Date.now() / 1000;
  const client = (incoming.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  const requested = incoming.url ?? "/";
  // Origin-form as sent; an absolute-form target (a client configured with an HTTP proxy) keeps its path and query.
  const target = requested.startsWith("/") ? requested : pathAndQuery(requested);
  return {
    incoming,
    outgoing,
    startedAt,
    client,
    method: incoming.method ?? "GET",
    target,
    url: `${f.upstream.origin}${f.basePath}${target}`,
    requestHeaders: upstreamRequestHeaders(f, incoming, client),
    tap: new BodyTap(f.cap),
    settled: false,
  };
}

/** The client's end-to-end headers with the upstream's own Host; X-Forwarded-For gains the client only when told. */
function upstreamRequestHeaders(f: Forwarding, incoming: http.IncomingMessage, client: string): string[] {
  const replaced = new Set(["host", ...(f.options.forwardedFor ? ["x-forwarded-for"] : [])]);
  const requestHeaders = [
    ...withoutHeaders(endToEnd(incoming.rawHeaders), replaced),
    "Host",
    f.upstream.host,
  ];
  // Transfer-Encoding is hop-by-hop, but a chunked request body still needs chunked framing
  // upstream: Node adds none for GET/DELETE/OPTIONS, and the raw body would then reach the
  // upstream as the start of another request.
  if (incoming.headers["transfer-encoding"] !== undefined)
    requestHeaders.push("Transfer-Encoding", "chunked");
  if (f.options.forwardedFor) {
    const prior = incoming.headers["x-forwarded-for"];
    requestHeaders.push("X-Forwarded-For", prior ? `${prior}, ${client}` : client);
  }
  return requestHeaders;
}

/** The whole exchange, the first time it ends (undefined after); the body's bytes are let go. */
function finish(p: Passage, outcome: Outcome): TrafficBytes | undefined {
  if (p.settled) return;
  p.settled = true;
  const full: TrafficBytes = {
    method: p.method,
    url: p.url,
    requestHeaders: headerRecord(p.incoming.rawHeaders),
    ...(p.client ? { client: p.client } : {}),
    startedAt: p.startedAt,
    ...outcome,
  };
  p.tap.release();
  return full;
}

function sendUpstream(f: Forwarding, p: Passage, retried: boolean): void {
  const { incoming, method } = p;
  const bodyless =
    (incoming.headers["content-length"] ?? "0") === "0" &&
    incoming.headers["transfer-encoding"] === undefined;
  const upstreamReq = (f.secure ? https : http).request(
    p.url,
    { method, headers: p.requestHeaders, agent: f.agent },
    (res) => forwardAnswer(f, p, res),
  );
  p.upstreamReq = upstreamReq;
  upstreamReq.on("error", (err: NodeJS.ErrnoException) => {
    // A kept-alive socket the upstream closed just as it was reused: not the API's doing, so
    // not a finding; a request without a body is sent again once, as the suite's client does.
    if (
      !retried &&
      upstreamReq.reusedSocket &&
      err.code === "ECONNRESET" &&
      bodyless &&
      !p.outgoing.headersSent &&
      IDEMPOTENT.has(method)
    ) {
      sendUpstream(f, p, true);
      return;
    }
    upstreamFailed(f, p, err);
  });
  if (bodyless) upstreamReq.end();
  else incoming.pipe(upstreamReq);
}

/** No answer from the upstream: judged as a failure, and the client gets a problem+json 502. */
function upstreamFailed(f: Forwarding, p: Passage, err: NodeJS.ErrnoException): void {
  const { outgoing } = p;
  if (p.settled || outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const failure = failureOf(err, false);
  void observe(f, finish(p, { status: 0, responseHeaders: {}, receivedAt: Date.now() / 1000, failure }));
  outgoing.writeHead(502, PROBLEM_HEADERS);
  outgoing.end(
    JSON.stringify(
      proxyProblem(
        "upstream-unreachable",
        `dealkit proxy could not get an answer from ${f.upstream.origin}: ${err.message}`,
      ),
    ),
  );
}

/** The upstream's answer on its way to the client, streamed or (with `errors`) held until judged. */
function forwardAnswer(f: Forwarding, p: Passage, res: http.IncomingMessage): void {
  const status = res.statusCode ?? 0;
  const responseHeaders = headerRecord(res.rawHeaders);
  p.outgoing.sendDate = false;
  // The bytes kept go to the judge as they are (decoded there, after the answer is sent).
  const complete = () =>
    finish(p, {
      status,
      responseHeaders,
      kept: p.tap.take(responseHeaders["content-encoding"]),
      receivedAt: Date.now() / 1000,
    });
  const broken = (err: NodeJS.ErrnoException) => {
    const full = finish(p, {
      status: 0,
      responseHeaders,
      receivedAt: Date.now() / 1000,
      failure: failureOf(err, true),
    });
    p.outgoing.destroy();
    void observe(f, full);
  };
  res.on("error", broken);
  res.on("close", () => {
    if (!res.complete)
      broken(Object.assign(new Error("the upstream closed the connection mid-body"), { code: "ECONNRESET" }));
  });
  if (f.options.errors) holdUntilJudged(f, p, res, complete);
  else streamAnswer(f, p, res, complete);
}

/** Streaming: the client gets every chunk as it comes; judging waits for the end. */
function streamAnswer(
  f: Forwarding,
  p: Passage,
  res: http.IncomingMessage,
  complete: () => TrafficBytes | undefined,
) {
  p.outgoing.writeHead(res.statusCode ?? 0, res.statusMessage, endToEnd(res.rawHeaders));
  res.on("data", (chunk: Buffer) => p.tap.push(chunk));
  res.pipe(p.outgoing);
  res.on("end", () => void observe(f, complete()));
}

/**
 * --errors: held until judged, up to the cap; past it the answer streams unjudged. One that breaks
 * the contract is replaced by a problem+json 502 naming the rules.
 */
function holdUntilJudged(
  f: Forwarding,
  p: Passage,
  res: http.IncomingMessage,
  complete: () => TrafficBytes | undefined,
) {
  const { outgoing, tap } = p;
  const status = res.statusCode ?? 0;
  const raw = endToEnd(res.rawHeaders);
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
      void observe(f, complete());
      return;
    }
    const verdict = await observe(f, complete());
    const own = verdict?.findings.filter((finding) => finding.own) ?? [];
    if (own.length === 0) {
      outgoing.writeHead(status, res.statusMessage, raw);
      outgoing.end(Buffer.concat(held));
      return;
    }
    const body = JSON.stringify(violationProblem(p.method, p.target, status, own));
    outgoing.sendDate = true;
    outgoing.writeHead(502, PROBLEM_HEADERS);
    outgoing.end(body);
  });
}

/** Listens; closing stops accepting, waits for the exchanges in flight (a while at most), and closes. */
function listen(server: http.Server, f: Forwarding, inFlight: Set<Promise<void>>): Promise<RunningProxy> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(f.options.port ?? 0, f.options.host ?? "127.0.0.1", () => {
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
          f.agent.destroy();
        },
      });
    });
  });
}
