import http from "node:http";
import https from "node:https";
import type { RequestCase } from "../types.ts";
import { decodeContent } from "./decode.ts";

/**
 * Why a request got no whole HTTP answer. A failure is an outcome to judge (answers-complete),
 * never an exception: one hanging or resetting endpoint must not end the run.
 */
export interface TransportFailure {
  /** `undecodable`: a whole answer came, but its body does not decode (x-compression). */
  kind: "timeout" | "reset" | "too-large" | "malformed" | "unreachable" | "undecodable";
  message: string;
}

/** The raw answer to one request, before the spec reads it; status 0 when it failed. */
export interface RawResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  sentAt: number;
  receivedAt: number;
  failure?: TransportFailure;
}

/** What one answer may cost at most: a deadline for headers and body together, and a body cap. */
export interface AnswerLimits {
  deadlineMs: number;
  maxBodyBytes: number;
}

export const DEFAULT_LIMITS: AnswerLimits = {
  // No latency is documented: generous, so a slow but correct target is not failed.
  deadlineMs: 20_000,
  // The largest documented answer (rank, limit 300, with content) is a few hundred KB.
  maxBodyBytes: 8 * 1024 * 1024,
};

// One keep-alive agent per source address: each is a distinct client IP to the server.
const agents = new Map<string, http.Agent>();

function agentFor(secure: boolean, localAddress: string | undefined): http.Agent {
  const key = `${secure ? "s" : "p"} ${localAddress ?? ""}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 4, ...(localAddress ? { localAddress } : {}) };
    agent = secure ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes idle keep-alive sockets so a finished run lets the process exit. */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** The URL of a case against a base URL (query entries in order, duplicates kept). */
export function caseUrl(
  baseUrl: string,
  request: Pick<RequestCase, "pathname" | "query" | "rawQuery">,
): string {
  // A base URL may carry a path prefix (https://host/deal-api): operation paths go below it.
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/$/, "")}${request.pathname}`;
  url.search = new URLSearchParams(request.query).toString();
  // Appended after the URL is built: its search setter would leave `%zz` but re-encode other bytes.
  if (request.rawQuery !== undefined) return `${url.toString().replace(/\?$/, "")}?${request.rawQuery}`;
  return url.toString();
}

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** Sorts a socket or parser error into the kinds a report can explain. */
export function classify(err: NodeJS.ErrnoException): TransportFailure["kind"] {
  const code = err.code ?? "";
  if (UNREACHABLE.has(code)) return "unreachable";
  if (code.startsWith("HPE_")) return "malformed";
  return "reset";
}

/**
 * Sends one request from `localAddress` (when given) and reads the answer within the limits:
 * headers and body before the deadline, the body under the cap (read as it streams, so a huge
 * or endless body costs at most the cap in memory). Resolves with a failure instead of throwing.
 * A kept-alive socket the server closed just as it was reused (a race after a long wait) is not
 * the server's fault: that one request goes again on a fresh socket, as Node's docs advise.
 */
export async function send(
  baseUrl: string,
  request: RequestCase,
  localAddress: string | undefined,
  limits: AnswerLimits = DEFAULT_LIMITS,
  signal?: AbortSignal,
): Promise<RawResponse> {
  const first = await sendOnce(baseUrl, request, localAddress, limits, signal);
  if (!first.reusedSocketClosed) return first;
  const again = await sendOnce(baseUrl, request, localAddress, limits, signal);
  if (!again.reusedSocketClosed) return again;
  // Closed again on another kept-alive socket: no longer a race, the server drops connections.
  const { reusedSocketClosed: _, ...answer } = again;
  return {
    ...answer,
    failure: {
      kind: "reset",
      message: "the connection was closed without an answer (twice, on kept-alive sockets)",
    },
  };
}

function sendOnce(
  baseUrl: string,
  request: RequestCase,
  localAddress: string | undefined,
  limits: AnswerLimits,
  signal?: AbortSignal,
): Promise<RawResponse & { reusedSocketClosed?: boolean }> {
  const url = caseUrl(baseUrl, request);
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const sentAt = Date.now() / 1000;
  return new Promise((resolve) => {
    let status = 0;
    let headers: Record<string, string> = {};
    let bytes = 0;
    let settled = false;
    const finish = (text: string, failure?: TransportFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        url,
        status,
        headers,
        text,
        sentAt,
        receivedAt: Date.now() / 1000,
        ...(failure ? { failure } : {}),
      });
    };
    const fail = (kind: TransportFailure["kind"], message: string) => {
      finish("", { kind, message });
      req.destroy();
    };
    const req = (secure ? https : http).request(
      target,
      {
        method: request.method,
        headers: request.headers,
        agent: agentFor(secure, localAddress),
        ...(signal ? { signal } : {}),
      },
      (res) => {
        status = res.statusCode ?? 0;
        headers = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined)
            headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        }
        const declared = Number(res.headers["content-length"]);
        if (declared > limits.maxBodyBytes) {
          fail("too-large", `Content-Length ${declared} is over the ${limits.maxBodyBytes}-byte cap`);
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > limits.maxBodyBytes) fail("too-large", `body over the ${limits.maxBodyBytes}-byte cap`);
          else chunks.push(chunk);
        });
        res.on("error", (err) => fail(classify(err), `${err.message} after ${bytes} body bytes`));
        res.on("aborted", () => fail("reset", `connection closed after ${bytes} body bytes`));
        res.on("end", () => {
          // Undone as a browser or fetch does, within the same cap; a body that does not decode is content-encoding's finding.
          const decoded = decodeContent(
            Buffer.concat(chunks),
            headers["content-encoding"],
            limits.maxBodyBytes,
          );
          if ("failure" in decoded) finish("", decoded.failure);
          else finish(decoded.body.toString("utf8"));
        });
      },
    );
    const timer = setTimeout(() => {
      const what = status === 0 ? "no response headers" : `${bytes} body bytes`;
      fail("timeout", `no whole answer within ${limits.deadlineMs} ms (${what})`);
    }, limits.deadlineMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (settled) return;
      if (req.reusedSocket && status === 0 && err.code === "ECONNRESET") {
        settled = true;
        clearTimeout(timer);
        resolve({
          url,
          status: 0,
          headers: {},
          text: "",
          sentAt,
          receivedAt: Date.now() / 1000,
          reusedSocketClosed: true,
        });
        return;
      }
      fail(classify(err), err.message);
    });
    req.end();
  });
}
