/**
 * Typed views of the spec's vendor extensions. The vocabulary is documented in
 * openapi/README.md and validated by openapi/x-conformance.schema.json.
 */
import type { Relation, Rule } from "../rules/types.ts";

export interface RateLimitPolicy {
  limit: number;
  window_seconds: number;
  algorithm: "sliding-window";
  scope: "client-ip";
  applies_to: "all-endpoints";
  status: number;
  retry_after: "delta-seconds";
  counts_refused: boolean;
  counts_preflight: boolean;
  client_ip: string;
  headers: string[];
}

export interface CorsPolicy {
  allow_origin: string;
  on: string[];
  expose_headers: string[];
  preflight: { status: number; allow_methods: string[]; allow_headers: string[]; max_age_seconds: number };
}

/** x-methods: HEAD as GET without a body; OPTIONS answered whether a preflight or not; the Allow header. */
export interface MethodsPolicy {
  allow: string[];
  head: "as-get";
  options: { status: number; unknown_path: number; counted: boolean };
  policy: string;
}

/** x-query-string: the longest query string any endpoint reads, measured as it travels. */
export interface QueryStringPolicy {
  max_length: number;
  measured: "as-sent";
  decoding: "form-urlencoded-strict-utf8";
  reason: string;
}

/** A refusal before routing, or the encoded slash: the status and the x-problem-types key it answers with. */
export interface GateAnswer {
  status: number;
  problem: string;
}

/** What x-request-gate lists as refused before routing. */
export type GateRefusal =
  | "head-too-large"
  | "malformed-header"
  | "missing-host"
  | "malformed-request-line"
  | "unknown-method"
  | "headers-timeout";

/** x-request-gate: the cap on the request head, how requests HTTP cannot read are answered, %2F in a segment. */
export interface RequestGatePolicy {
  head_max_bytes: number;
  head_measured: "as-sent";
  slack_bytes: number;
  served_beyond_bytes: number;
  refusals: Partial<Record<GateRefusal, GateAnswer>>;
  answered: { media_type: string; cors: boolean; counted: boolean; connection: "close" | "keep-alive" };
  encoded_slash: GateAnswer;
  reason: string;
}

/** Which answers an x-caching entry covers. */
export type CachingKind = "personal" | "rate-limited" | "public";

/** x-caching: the Cache-Control directives each kind of answer carries (one of the sets, all of its directives). */
export interface CachingPolicy {
  answers: { kind: CachingKind; cache_control: string[][] }[];
  policy: string;
}

/** x-compression: the codings an answer may use when offered, and the Vary it then carries. */
export interface CompressionPolicy {
  codings: string[];
  vary: string;
  policy: string;
}

export interface VersioningPolicy {
  current: string;
  scheme: "path";
  path_prefix: string;
  successor_path_prefix: string;
  additive_only: boolean;
  releases_dir: string;
  min_support_months_after_successor: number;
  announce_headers: string[];
  policy: string;
}

export interface Category {
  id: string;
  alias: string;
  name: string;
  kind: string;
  priced: boolean;
}

export interface Categories {
  all_alias: string;
  priced_streams: string[];
  items: Category[];
}

export type RankWindow =
  | { label: string; kind: "rolling"; hours: number }
  | { label: string; kind: "calendar-day"; days_ago: number };

export interface RankWindows {
  timezone: string;
  order: { field: string; direction: "asc" | "desc" }[];
  windows: Record<string, RankWindow>;
}

export interface WordsSyntax {
  separators: string[];
  trim: boolean;
  drop_empty: boolean;
  max_words: number;
  max_word_length: number;
  match: "substring-ci-latin";
  combine: "any" | "none";
}

export interface ProblemType {
  status: number;
  title: string;
  detail: string;
}

export interface NotProvided {
  id: string;
  description: string;
}

/** A JSON Schema object as it appears in the dereferenced document. */
export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
};

export interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  description: string;
  schema: JsonSchema;
  words?: WordsSyntax;
}

export interface ResponseSpec {
  status: string;
  description: string;
  headers: Record<string, { required?: boolean; schema: JsonSchema }>;
  content: Record<
    string,
    { schema: JsonSchema; examples: Record<string, { summary?: string; value: unknown }> }
  >;
}

export interface Operation {
  operationId: string;
  method: "get";
  path: string;
  summary: string;
  tags: string[];
  /** True when the operation needs the API key (a non-empty security requirement). */
  secured: boolean;
  parameters: Parameter[];
  responses: Record<string, ResponseSpec>;
  rules: Rule[];
  /** x-relations: how this operation's answers relate to each other. */
  relations: Relation[];
}
