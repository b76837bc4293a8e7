import { request as httpRequest } from "node:http";
import type { Database } from "better-sqlite3";
import type { RuleExchange } from "../../src/rules/evaluate.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { openDatabase } from "../db/open.ts";
import { type BuiltApp, buildApp, type ServerOptions } from "../index.ts";

/** 2026-11-25 10:30 in Asia/Shanghai: the fixed instant of every test. */
export const NOW_MS = Date.UTC(2026, 10, 25, 2, 30, 0);
export const DEMO_KEY = "0123456789abcdef0123456789abcdef";
/** Small and fast, yet every rank window has entries (see generate.test.ts). */
export const TEST_SIZE = 3000;

/** Generated alerts in memory at NOW_MS (Asia/Shanghai, +8 h), without a server: what the store's tests read. */
export async function generatedDb(size: number, seed: number): Promise<Database> {
  const spec = await loadSpec();
  return openDatabase({
    dbPath: ":memory:",
    size,
    seed,
    nowSeconds: NOW_MS / 1000,
    categories: spec.categories.items,
    zoneOffset: 8 * 3600,
  }).db;
}

export function testApp(options: ServerOptions = {}): Promise<BuiltApp> {
  return buildApp({
    dbPath: ":memory:",
    size: TEST_SIZE,
    seed: 7,
    now: () => NOW_MS,
    demoKey: DEMO_KEY,
    ...options,
  });
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface Call {
  method?: string;
  headers?: Record<string, string>;
  /** Source address (a distinct client IP of 127.0.0.0/8). */
  from?: string;
}

/** One way of reaching the server: in process (inject) or over a loopback socket. */
export type Transport = (url: string, call?: Call) => Promise<Reply>;

function flatHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

export function injectTransport(app: BuiltApp["app"]): Transport {
  return async (url, call = {}) => {
    const res = await app.inject({
      method: (call.method ?? "GET") as "GET",
      url,
      headers: call.headers,
      remoteAddress: call.from ?? "127.0.0.1",
    });
    return { status: res.statusCode, headers: flatHeaders(res.headers), text: res.body };
  };
}

export function socketTransport(baseUrl: string): Transport {
  const { hostname, port } = new URL(baseUrl);
  return (url, call = {}) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: hostname,
          port,
          path: url,
          method: call.method ?? "GET",
          headers: call.headers,
          localAddress: call.from,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: flatHeaders(res.headers),
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        },
      );
      req.on("error", reject);
      req.end();
    });
}

export function mediaType(reply: Reply): string {
  return (reply.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

export function bodyOf(reply: Reply): unknown {
  return mediaType(reply).includes("json") ? JSON.parse(reply.text) : reply.text;
}

/**
 * Everything the spec says about one response: the body validates against the documented
 * schema of its operation, status and media type; documented headers are present and valid.
 * Unrouted paths must be a valid Problem. Returns the violations (empty = conforming).
 */
export function specViolations(spec: Spec, url: string, reply: Reply): string[] {
  const pathname = url.split("?")[0] ?? "";
  const match = safeMatch(spec, pathname);
  const type = mediaType(reply);
  const body = bodyOf(reply);
  const out: string[] = [];
  if (!match || reply.status === 405) {
    const problemSchema = (spec.doc.components as { schemas: Record<string, object> }).schemas
      .Problem as object;
    const validate = spec.schemaValidator(problemSchema as never);
    if (type !== "application/problem+json") out.push(`media type ${type}`);
    if (!validate(body)) out.push(JSON.stringify(validate.errors));
    return out;
  }
  const id = match.operation.operationId;
  const validate = spec.responseValidator(id, reply.status, type);
  if (!validate) return [`${id} documents no ${reply.status} ${type}`];
  if (!validate(body)) out.push(`${id} ${reply.status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  for (const [name, header] of Object.entries(spec.response(id, reply.status)?.headers ?? {})) {
    const value = reply.headers[name.toLowerCase()];
    if (value === undefined) {
      out.push(`missing header ${name}`);
      continue;
    }
    const schema = header.schema;
    const typed = schema.type === "integer" && /^-?[0-9]+$/.test(value) ? Number(value) : value;
    if (!spec.schemaValidator(schema)(typed)) out.push(`header ${name}: ${value}`);
  }
  return out;
}

function safeMatch(spec: Spec, pathname: string) {
  try {
    return spec.match(pathname);
  } catch {
    return undefined;
  }
}

/** The rule engine's view of an exchange (the server's clock is fixed, so sent = received). */
export function ruleExchange(
  spec: Spec,
  operation: Operation,
  url: string,
  reply: Reply,
  credentials?: "valid" | "invalid",
): RuleExchange {
  const [pathname = "", query = ""] = url.split("?");
  const pathParams = spec.match(pathname)?.pathParams ?? {};
  return {
    operation,
    request: parseRequest(spec, operation, new URLSearchParams(query), pathParams),
    credentials,
    status: reply.status,
    mediaType: mediaType(reply),
    body: bodyOf(reply),
    sentAt: NOW_MS / 1000,
    receivedAt: NOW_MS / 1000,
  };
}
