import http from "node:http";
import https from "node:https";
import type { RequestCase } from "../types.ts";

/** The raw answer to one request, before the spec reads it. */
export interface RawResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  sentAt: number;
  receivedAt: number;
}

/** The target could not be reached at all (exit 2), as opposed to answering wrongly. */
export class UnreachableError extends Error {}

const TIMEOUT_MS = 30_000;
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
function caseUrl(baseUrl: string, request: RequestCase): string {
  // A base URL may carry a path prefix (https://host/deal-api): operation paths go below it.
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/$/, "")}${request.pathname}`;
  const search = new URLSearchParams(request.query);
  url.search = search.toString();
  return url.toString();
}

/** Sends one request from `localAddress` (when given) and reads the whole answer. */
export function send(baseUrl: string, request: RequestCase, localAddress?: string): Promise<RawResponse> {
  const url = caseUrl(baseUrl, request);
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const lib = secure ? https : http;
  const sentAt = Date.now() / 1000;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      target,
      {
        method: request.method,
        headers: request.headers,
        agent: agentFor(secure, localAddress),
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined)
              headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
          }
          resolve({
            url,
            status: res.statusCode ?? 0,
            headers,
            text: Buffer.concat(chunks).toString("utf8"),
            sentAt,
            receivedAt: Date.now() / 1000,
          });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on("error", (err) => reject(new UnreachableError(`${request.method} ${url}: ${err.message}`)));
    req.end();
  });
}
