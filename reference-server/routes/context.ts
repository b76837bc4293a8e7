import type { IncomingHttpHeaders } from "node:http";
import type { ParsedRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Account } from "../auth.ts";
import type { Store } from "../db/store.ts";

export interface RouteContext {
  spec: Spec;
  store: Store;
  /** The injectable clock, in Unix seconds. */
  nowSeconds(): number;
  /** The rate limit in force, when the server was configured with another than the spec's. */
  rateLimit?: { limit: number; windowSeconds: number };
}

export interface RouteInput {
  operation: Operation;
  /** Parameters already validated against the spec (defaults applied). */
  parsed: ParsedRequest;
  headers: IncomingHttpHeaders;
  /** Scheme, host and port the client used, for self links. */
  baseUrl: string;
  /** The authenticated account on secured operations. */
  account?: Account;
}

export interface Answer {
  status: number;
  body: unknown;
  /** Media type; application/json when not given. */
  type?: string;
  /** The operation the path routed to (set by dispatch): how caches may keep the answer depends on it. */
  operation?: Operation;
}

/** One operation of the spec. Handlers run only on valid requests: validation happened before. */
export type Handler = (ctx: RouteContext, input: RouteInput) => Answer;
