/**
 * A mutating proxy in front of a real implementation: each planted bug changes one documented
 * behaviour of the answers (or of the request on its way) and nothing else, so the suite can be
 * shown to catch it with the intended check. The upstream connection leaves from an address
 * derived from the client's (127.0.0.N → 127.S.0.N), so per-IP rate limiting still sees
 * distinct clients, and each proxy instance (S) has client IPs of its own upstream.
 *
 * The proxy also tells whether its bug took effect: it counts the exchanges whose answer differs
 * from the correct server's answer to the same request (see `differs` below), so a planted test
 * can tell "the suite found nothing" from "there was nothing to find".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { clientErrorHandler } from "../../reference-server/http/client-errors.ts";
import { corsHeaders } from "../../src/http/cors.ts";
import { loadSpec } from "../../src/spec/load.ts";

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
  /**
   * Whether the answer sent differs from what a correct component in the same place would have
   * sent, for mutations the proxy cannot judge by comparing with the upstream's answer: a planted
   * limiter compares its decision with a correct limiter's, a compressing proxy its bytes with a
   * correct compressing proxy's. `upstream` is undefined when the mutation answered in its place.
   */
  deviated?(req: ProxiedRequest, upstream: ProxiedResponse | undefined, sent: ProxiedResponse): boolean;
}

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

/** What a planted proxy passed on, and how much of it its bug changed. */
export interface Tally {
  exchanges: number;
  /** Exchanges whose answer differs from the correct server's answer to the same request. */
  differing: number;
  /** The paths of those exchanges, sorted. */
  paths: string[];
}

export interface PlantedProxy extends Proxy {
  /** The tally, once every comparison still under way (a shadow request) has ended. */
  tally(): Promise<Tally>;
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
  // A request without Host goes on without one (setHost: false): the upstream refuses it, not the proxy.
  const headers = req.headers.host === undefined ? rest : { ...rest, host: upstream.host };
  return new Promise((resolve, reject) => {
    const r = http.request(url, { method, headers, localAddress, agent: false, setHost: false }, (res) => {
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

/** What a planted proxy counts as it goes; `settled` waits for the comparisons still under way. */
function createTallyKeeper() {
  const tally = { exchanges: 0, differing: 0, paths: new Set<string>() };
  const comparisons = new Set<Promise<void>>();
  const count = (received: ProxiedRequest, differing: boolean) => {
    tally.exchanges++;
    if (!differing) return;
    tally.differing++;
    tally.paths.add(received.pathname);
  };
  return {
    count,
    /** Counts the exchange once its comparison ends; a comparison that fails counts as alike. */
    track(received: ProxiedRequest, differing: Promise<boolean>) {
      const judged = differing
        .then((d) => count(received, d))
        .catch(() => count(received, false))
        .finally(() => comparisons.delete(judged));
      comparisons.add(judged);
    },
    async settled(): Promise<Tally> {
      while (comparisons.size > 0) await Promise.allSettled([...comparisons]);
      return { exchanges: tally.exchanges, differing: tally.differing, paths: [...tally.paths].sort() };
    },
  };
}

type TallyKeeper = ReturnType<typeof createTallyKeeper>;

/** What every exchange of one proxy shares. */
interface ProxyContext {
  upstream: URL;
  mutation: Mutation;
  subnet: number;
  tally: TallyKeeper;
  /** The n-th upstream request, for `Mutation.upstreamAddress`. */
  nextUpstream(): number;
  nextShadowAddress(): string;
}

/**
 * Shadow requests leave from addresses of the proxy's own that nothing else uses (127.S.1.1 on),
 * so they never count against a client's window in the mutated world.
 */
function shadowAddresses(subnet: number): () => string {
  let shadows = 0;
  return () => {
    const k = shadows++;
    return `127.${subnet}.${1 + (Math.floor(k / 250) % 250)}.${(k % 250) + 1}`;
  };
}

/** The request as the proxy received it; its query as written is kept for forwarding. */
function receive(incoming: http.IncomingMessage): ProxiedRequest {
  const url = new URL(incoming.url ?? "/", "http://proxy");
  sentAs.set(incoming.headers, url.search);
  return {
    method: incoming.method ?? "GET",
    client: (incoming.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, ""),
    pathname: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
  };
}

/** The upstream answer to the mutated request (or the mutation's own), and where it went from. */
async function answer(
  p: ProxyContext,
  req: ProxiedRequest | ProxiedResponse,
  client: string,
  transparent: string,
): Promise<{ res: ProxiedResponse; upstreamRes?: ProxiedResponse; local?: string }> {
  if ("status" in req) return { res: req };
  const local = p.mutation.upstreamAddress?.(client, p.nextUpstream()) ?? transparent;
  const upstreamRes = await forward(p.upstream, req, req.method, local);
  const res = p.mutation.response ? p.mutation.response(req, upstreamRes) : upstreamRes;
  return { res, upstreamRes, local };
}

function send(incoming: http.IncomingMessage, outgoing: http.ServerResponse, res: ProxiedResponse): void {
  // HTTP/1.1 without Host: the upstream refuses it before routing and closes (x-request-gate), so does the proxy.
  if (incoming.httpVersion === "1.1" && incoming.headers.host === undefined)
    outgoing.setHeader("connection", "close");
  outgoing.writeHead(res.status, res.headers);
  outgoing.end(res.bytes ?? res.body);
}

/** One exchange: receive, let the mutation act, answer, then compare with the correct answer in the background. */
async function handle(p: ProxyContext, incoming: http.IncomingMessage, outgoing: http.ServerResponse) {
  try {
    const received = receive(incoming);
    const asked = `${received.method} ${received.pathname}?${forwardedQuery(received)}`;
    if (p.mutation.sabotage?.(received, outgoing)) {
      // Taken over at the socket: no correct server hangs, resets or trickles.
      p.tally.count(received, true);
      return;
    }
    const req =
      (await p.mutation.admit?.(received)) ?? (p.mutation.request ? p.mutation.request(received) : received);
    const transparent = `127.${p.subnet}.0.${received.client.split(".").at(-1) ?? "1"}`;
    const { res: sent, upstreamRes, local } = await answer(p, req, received.client, transparent);
    send(incoming, outgoing, sent);
    const mirrored = local !== undefined && local !== transparent;
    const differing = differs({
      mutation: p.mutation,
      received,
      // As forwarded, byte for byte: a query read and written again (`%zz` sent on as `%25zz`) is rewritten.
      rewritten: "status" in req || `${req.method} ${req.pathname}?${forwardedQuery(req)}` !== asked,
      upstreamRes,
      sent,
      // A request sent from another address than the transparent one: its correct answer is the
      // one the transparent address gets (which nothing else uses then, so its window is the client's).
      shadowFrom: mirrored ? transparent : p.nextShadowAddress(),
      shadowIsMirror: mirrored,
      forwardShadow: (from) => forward(p.upstream, received, received.method, from),
    });
    p.tally.track(received, differing);
  } catch (err) {
    outgoing.writeHead(502, { "content-type": "text/plain" });
    outgoing.end(`proxy: ${(err as Error).message}`);
  }
}

/**
 * What this Node parser refuses itself (a head over 16 KB, a line that is no field) it answers as the
 * contract does, like the server behind it: a correct component in front (x-request-gate).
 */
async function answerClientErrors(server: http.Server): Promise<void> {
  const spec = await loadSpec();
  const cors = corsHeaders(spec.cors);
  server.on("clientError", clientErrorHandler({ spec, cors, trusted: new Set(), now: Date.now }));
}

/**
 * Starts a proxy on an ephemeral loopback port; `subnet` (1-250) keeps its client IPs (127.S.0.N)
 * and its shadow requests' addresses (127.S.1.1 on) apart upstream.
 */
export function startProxy(upstreamUrl: string, mutation: Mutation, subnet: number): Promise<PlantedProxy> {
  if (!Number.isInteger(subnet) || subnet < 1 || subnet > 250)
    throw new Error(`subnet ${subnet} is not 1-250`);
  let upstreamRequests = 0;
  const p: ProxyContext = {
    upstream: new URL(upstreamUrl),
    mutation,
    subnet,
    tally: createTallyKeeper(),
    nextUpstream: () => upstreamRequests++,
    nextShadowAddress: shadowAddresses(subnet),
  };
  // A request without Host reaches the handler, to be forwarded as it came (x-request-gate).
  const server = http.createServer({ requireHostHeader: false }, (incoming, outgoing) =>
    handle(p, incoming, outgoing),
  );
  return answerClientErrors(server)
    .then(() => listenOnLoopback(server))
    .then((proxy) => ({ ...proxy, tally: () => p.tally.settled() }));
}

/**
 * Whether the answer sent differs from the correct server's answer to the same request:
 * - the mutation says so itself when it knows better (`deviated`);
 * - the request was rewritten, answered in the upstream's place or sent from another address:
 *   the request as received is sent upstream once more (a shadow) and the answers compared
 *   (status, Content-Type, Content-Encoding, body); a rewritten request the upstream refused
 *   with its rate limit is counted the same as the original would be, so it is not compared;
 * - otherwise the upstream's answer is the correct one: compared with what was sent, headers
 *   included.
 */
async function differs(e: {
  mutation: Mutation;
  received: ProxiedRequest;
  rewritten: boolean;
  upstreamRes: ProxiedResponse | undefined;
  sent: ProxiedResponse;
  shadowFrom: string;
  shadowIsMirror: boolean;
  forwardShadow(from: string): Promise<ProxiedResponse>;
}): Promise<boolean> {
  if (e.mutation.deviated) return e.mutation.deviated(e.received, e.upstreamRes, e.sent);
  if (!e.rewritten && !e.shadowIsMirror)
    return e.upstreamRes !== undefined && !sameAnswer(e.upstreamRes, e.sent, true);
  if (!e.shadowIsMirror && e.upstreamRes?.status === 429 && e.sent.status === 429) return false;
  const correct = await e.forwardShadow(e.shadowFrom);
  return !sameAnswer(correct, e.sent, false);
}

/** Two answers alike: status, body (as JSON when both are) and the headers (all, or those of the content). */
function sameAnswer(a: ProxiedResponse, b: ProxiedResponse, allHeaders: boolean): boolean {
  if (a.status !== b.status) return false;
  const names = allHeaders
    ? [...new Set([...Object.keys(a.headers), ...Object.keys(b.headers)].map((k) => k.toLowerCase()))]
    : ["content-type", "content-encoding"];
  const header = (r: ProxiedResponse, name: string) =>
    Object.entries(r.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  if (names.some((n) => header(a, n) !== header(b, n))) return false;
  if (a.bytes || b.bytes) return !!a.bytes && !!b.bytes && a.bytes.equals(b.bytes);
  if (a.body === b.body) return true;
  const json = (text: string) => {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  };
  const [x, y] = [json(a.body), json(b.body)].map((j) => j && { value: withoutClock(j.value) });
  return x !== undefined && y !== undefined && isDeepStrictEqual(x.value, y.value);
}

/** The answer without the manifest's generated_at, which ticks between an answer and its shadow. */
function withoutClock(value: unknown): unknown {
  const meta = (value as { meta?: unknown } | null)?.meta;
  if (!meta || typeof meta !== "object" || !("generated_at" in meta)) return value;
  const { generated_at: _, ...rest } = meta as Record<string, unknown>;
  return { ...(value as object), meta: rest };
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
