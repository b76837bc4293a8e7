/**
 * The vocabulary of the conformance suite: what a request case, an exchange, a check and a
 * violation are. Checks are values of `Check`; the registry lists them; the runner feeds them.
 */
import type { ParsedRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Operation } from "../src/spec/types.ts";

export type Severity = "critical" | "high" | "medium" | "low";

/** Which credentials a request to a key-protected operation carries. */
export type Credentials = "valid" | "invalid";

/** One request the suite sends. Query entries keep order and duplicates (a duplicate is a test). */
export interface RequestCase {
  method: "GET" | "OPTIONS";
  operationId?: string;
  pathname: string;
  query: [string, string][];
  headers: Record<string, string>;
  credentials?: Credentials;
  /** Why the case exists: "boundary", "random", "rule:<id>", "burst"... (for the report). */
  label: string;
}

/** A request and what came back, read against the spec. */
export interface Exchange {
  request: RequestCase;
  url: string;
  /** Source address the request left from (loopback spreading), when one was chosen. */
  localAddress?: string;
  operation?: Operation;
  /** The request as the spec reads it (only for routed GET requests). */
  parsed?: ParsedRequest;
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** Media type without parameters, lower-cased. */
  mediaType?: string;
  text: string;
  /** Parsed JSON when the body is JSON, else the text. */
  body: unknown;
  /** Unix seconds (fractional) when the request left and when the answer came back. */
  sentAt: number;
  receivedAt: number;
}

/** What a check found wrong with one exchange (the runner adds request, seed and replay). */
export interface Finding {
  /** Stable code: `<check>` or `<check>/<detail>`; the dedupe key is code + operation. */
  code: string;
  title: string;
  received: unknown;
  documented: unknown;
  /** The x-conformance rule id the finding comes from, for rule checks. */
  rule?: string;
}

/** A finding as reported: typed, reproducible. */
export interface Violation extends Finding {
  check: string;
  severity: Severity;
  operation: string;
  /** A curl line reproducing the (shrunk) request. */
  request: string;
  seed: number;
  /** How to replay it: the CLI arguments, and the fast-check path when it came from a property. */
  replay: string;
}

/** What checks may read: the spec, the frozen releases, and the target's facts. */
export interface CheckContext {
  spec: Spec;
  /** Specs of the frozen v1 releases (openapi/releases/), oldest first. */
  releases: { version: string; spec: Spec }[];
  /** Rate-limit parameters in force (the stricter of the spec and the target's meta). */
  rate: { limit: number; windowSeconds: number };
}

/** The runner's services a probing check uses to send its own requests. */
export interface ProbeContext extends CheckContext {
  /** Sends through the pacer; the exchange is judged by every passive check as well. */
  send(request: RequestCase, options?: { address?: string }): Promise<Exchange>;
  /** Sends bypassing the pacer from one reserved address (the deliberate 429 burst only). */
  sendRaw(request: RequestCase, address: string | undefined): Promise<Exchange>;
  /** Reserved source addresses nobody else uses (two on loopback, [undefined] otherwise). */
  reserved: (string | undefined)[];
  /** Waits until no request from this address is inside the rate window any more. */
  waitIdle(address: string | undefined): Promise<void>;
  /** Base cases the runner built from the spec (valid ones per operation), for paired requests. */
  validCases(operationId: string): RequestCase[];
  /** Credentials for key-protected operations, when known. */
  account?: { uid: string; key: string };
  skipSlow: boolean;
  sleep(ms: number): Promise<void>;
  log(line: string): void;
}

export interface ProbeOutcome {
  cases: number;
  findings: { finding: Finding; exchange: Exchange }[];
  /** Set when part of the check could not run (why), e.g. --skip-slow or a single source address. */
  skipped?: string;
}

/**
 * A conformance check. `judge` reads one exchange (applicability guard first: `null` when the
 * exchange is not its business); `probe` plans requests of its own (CORS preflight, the 429
 * burst, paired requests). A check has one or both.
 */
export interface Check {
  /** Stable name, kebab-case; rule checks are `rule:<x-conformance id>`. */
  name: string;
  title: string;
  /** What it verifies, one sentence (the README table). */
  verifies: string;
  /** Which spec rule it comes from (pointer into the spec or seed section). */
  source: string;
  severity: Severity;
  judge?(ctx: CheckContext, exchange: Exchange): Finding[] | null;
  probe?(ctx: ProbeContext): Promise<ProbeOutcome>;
  /** "last": runs after everything else (the 429 burst). */
  phase?: "main" | "last";
}
