/**
 * The vocabulary of the conformance suite: what a request case, an exchange, a check and a
 * violation are. Checks are values of `Check`; the registry lists them; the runner's phases
 * (discover, plan, execute, judge, report) feed them.
 */
import type { ParsedRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Operation } from "../src/spec/types.ts";
import type { Account } from "./arbitraries/requests.ts";
import type { Vocabulary } from "./arbitraries/vocabulary.ts";
import type { TransportFailure } from "./http/client.ts";
import type { WireRequest } from "./http/raw-request.ts";
import type { AnswerFacts } from "./runner/causes.ts";
import type { UnitCost } from "./runner/unit-costs.ts";

export type Severity = "critical" | "high" | "medium" | "low";

/** Which credentials a request to a key-protected operation carries. */
export type Credentials = "valid" | "invalid";

/** One request the suite sends. Query entries keep order and duplicates (a duplicate is a test). */
export interface RequestCase {
  method: "GET" | "HEAD" | "OPTIONS";
  operationId?: string;
  pathname: string;
  query: [string, string][];
  headers: Record<string, string>;
  credentials?: Credentials;
  /** Why the case exists: "boundary", "random", "rule:<id>", "burst"... (for the report). */
  label: string;
  /**
   * The query string sent as written, byte for byte, instead of `query` (which stays empty): for
   * what URLSearchParams would normalize (`+`, `%zz`, escapes of invalid UTF-8). Its exchange is
   * read from the URL as sent, like every other.
   */
  rawQuery?: string;
  /**
   * Sent over a socket of its own, byte for byte, for what no HTTP client sends (a head of an exact
   * size, a header line that is no field, no Host): request-gate's cases. Read by no other check.
   */
  wire?: WireRequest;
}

/** Whether the rate limit counts a request: every method but OPTIONS (x-methods, x-rate-limit). */
export const isCounted = (request: Pick<RequestCase, "method">): boolean => request.method !== "OPTIONS";

/** Where in the schedule a request went: a finding's replay must recreate what preceded it. */
export type Phase = "discovery" | "plan" | "burst" | "over-limit" | "wait" | "explore";

/** A request and what came back, read against the spec. */
export interface Exchange {
  request: RequestCase;
  url: string;
  /** Source address the request left from (loopback spreading), when one was chosen. */
  localAddress?: string;
  operation?: Operation;
  /** The request as the spec reads it (only for routed GET requests). */
  parsed?: ParsedRequest;
  /** 0 when no whole answer came (see `failure`). */
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
  /** Set when no whole HTTP answer came (timeout, reset, body over the cap, malformed) or its body does not decode. */
  failure?: TransportFailure;
  phase?: Phase;
  /** Requests this address had sent in the current rate window before this one (burst replays). */
  windowIndex?: number;
  /** Preflights this address had sent in the current rate window before this one (burst replays). */
  preflightsBefore?: number;
  /** Set when the answer repeats an earlier one to the same URL (Date, RateLimit-Remaining, body): a cache replaying it. */
  replayed?: string;
  /** Seconds the client had waited since it was refused, for requests of the wait (burst replays). */
  waited?: number;
  /** For a raw (`wire`) request: whether the server closed the connection after its answer. */
  closed?: boolean;
}

/** The operation an exchange went to, for messages and grouping: its operationId, else the path asked. */
export const operationName = (e: Pick<Exchange, "operation" | "request">): string =>
  e.operation?.operationId ?? e.request.pathname;

/** What a check found wrong (the recorder adds request, seed and replay). */
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
  /** A shell script sending what had to precede the request (the burst that filled the window). */
  reproduce?: string;
  /** Set when a `--known` entry accepts it: shown, but not failing until the entry expires. */
  known?: { reason: string; expires: string };
  /** What the answer it came from looked like: who made it (see runner/causes.ts). */
  answer?: AnswerFacts;
  /** The id of the root cause that explains it, when a known one does. */
  cause?: string;
  /** Its exchange's index in the run's timeline (active runs): the HTML report links the two. */
  exchange?: number;
}

/** What checks may read: the spec, the frozen releases, and the target's facts. */
export interface CheckContext {
  spec: Spec;
  /** Specs of the frozen v1 releases (openapi/releases/), oldest first. */
  releases: { version: string; spec: Spec }[];
  /** Rate-limit parameters in force (the stricter of the spec and the target's meta). */
  rate: { limit: number; windowSeconds: number };
}

/** What a check may read when it plans requests of its own. */
export interface PlanContext extends CheckContext {
  vocabulary: Vocabulary;
  /** The account the run was given (--uid and --api-key, or the bundled server's demo account). */
  account?: Account;
  /** Valid requests of an operation that should find data, best first (steered by discovery). */
  validCases(operationId: string): RequestCase[];
}

/**
 * Requests sent back to back from one address and judged together by their check. In a
 * "compare" group the first request is the control: it is sent again last (A, B..., A′), and an
 * answer to A′ that differs from A means the data moved meanwhile.
 */
/** How a parameter of a later request is taken from the first answer (see PlannedGroup.fromFirst). */
/** `lastPage.after`: pages past the last one (1: the page after the last; default 0). */
export type FromFirst = string | { windowOf: string } | { lastPage: { size: number; after?: number } };

export interface PlannedGroup {
  check: string;
  kind: "compare" | "set";
  requests: RequestCase[];
  label: string;
  /**
   * Parameters of the later requests taken from the first answer (param → how): a field of the
   * first item at `at` that carries every named field, or the narrowest rank window holding a
   * time field of that item, or the last page of its `meta.total`. Without them they are not sent.
   */
  fromFirst?: { at: string; params: Record<string, FromFirst> };
  /** Sent only when the check has no evidence once the plan's own groups are judged. */
  fallback?: boolean;
  /**
   * Set when its answers judge only part of its check here, naming the part not judged and what it
   * needs (a uid known to exist, when no account was given): its verdict carries it as `partial`.
   */
  partial?: string;
}

/** A group once sent: one list of exchanges per attempt (a moved control is retried once). */
export interface SentGroup {
  planned: PlannedGroup;
  exchanges: Exchange[];
}

/** A check's verdict on evidence it gathered across several exchanges. */
export interface Verdict {
  findings: { finding: Finding; exchange: Exchange }[];
  /** True when the evidence could have shown a violation. */
  informative: boolean;
  /** Why nothing could be concluded (the data moved, the endpoint failed...). */
  inconclusive?: string;
  /** The data moved between the control's two answers: worth sending the group once more. */
  moved?: boolean;
  /** Part of the check that could not be done here (e.g. per-IP counting from one address). */
  partial?: string;
  /**
   * The parts of the check this case left unexercised, each with what it would need: the check is
   * then reported judged in part, never as a plain pass (conformance/README.md "Judged in part").
   */
  unjudged?: string[];
}

/**
 * The first rate window of one client address, spent as the 429 burst: `limit` requests (the
 * plan's own), the one over the limit, one to every other operation, the wait, and after it.
 */
export interface BurstRecord {
  address: string | undefined;
  limit: number;
  windowSeconds: number;
  /** Every request of the window in sending order (preflights included), before the limit was reached. */
  window: Exchange[];
  /** How many of them came before the pause (the only ones gone from the window when the wait ends). */
  opening: number;
  /** Over the limit: first with a forged X-Forwarded-For, then (if that was served) without. */
  overLimit: Exchange[];
  /**
   * Early in the wait: requests seconds apart after the refusal, to see whether the limiter serves
   * again long before the window's first request leaves it (a bucket refilling).
   */
  refill: Exchange[];
  /** Over the limit, one valid request to every other operation, and one with a parameter out of range. */
  otherEndpoints: Exchange[];
  /** The same moment from another client address (spread runs only). */
  otherAddress?: Exchange;
  /** Refused requests sent halfway through the wait (must not be counted). */
  knocks: Exchange[];
  /** Seconds waited after the refusal (Retry-After, capped at the window). */
  waited?: number;
  /** The first request after the wait. */
  after?: Exchange;
  /**
   * After `after`, the requests sent at once until one was refused or more were served than a
   * sliding window frees by then (the window's shape: a fixed window resets whole at its boundary).
   */
  afterProbes?: Exchange[];
  /**
   * The window of the burst's address was not empty when the run began (a readiness probe, an
   * earlier run): how many requests the server had counted before the run's first (undefined when
   * its answers do not say), and the seconds waited for them to leave the window.
   */
  usedAtStart?: { before: number | "full" | undefined; waitedSeconds: number };
  /** Why part of the burst was not done. */
  skipped?: string;
  /** The run saw the target count several client addresses as one (rate diagnosis). */
  countedTogether?: boolean;
  /** Operations whose every request sent alone lowered RateLimit-Remaining by two or more (the whole run). */
  unitCosts?: UnitCost[];
}

/**
 * Why a judged answer is no evidence for a check, in words the report can give as the reason it
 * was not exercised ("no frozen release for this operation", "no schema").
 */
export interface NoEvidence {
  none: string;
}

/**
 * What a judged answer is to its check: evidence (`true`, or the kind of evidence it is, see
 * `evidenceKinds`), or not (`false`, or a `NoEvidence` saying why not).
 */
export type EvidenceOf = boolean | string | NoEvidence;

/** A judged answer that is no evidence, and why. */
export const noEvidence = (why: string): NoEvidence => ({ none: why });

/** What every check says about itself, whatever it judges. */
interface CheckBase {
  /** Stable name, kebab-case; rule checks are `rule:<x-conformance id>`. */
  name: string;
  title: string;
  /** What it verifies, one sentence (the README table). */
  verifies: string;
  /** Which spec rule it comes from (pointer into the spec or seed section). */
  source: string;
  severity: Severity;
  /** Kinds of evidence the check needs, each with what goes unjudged when the run saw none of it. */
  evidenceKinds?: Record<string, string>;
  plan?(ctx: PlanContext): PlannedGroup[];
  /** Judges a group it planned; the verdict says whether it was evidence (`Verdict.informative`). */
  judgeGroup?(ctx: CheckContext, group: SentGroup): Verdict;
  /** Judges the 429 burst; likewise. */
  judgeBurst?(ctx: CheckContext, burst: BurstRecord): Verdict;
  /** The operation whose data its evidence needs (rule checks), for the report's reasons. */
  operationId?: string;
  /** Its evidence needs an account (served answers of the key-protected streams, a uid known to exist). */
  needsAccount?: boolean;
}

/**
 * A check that reads single exchanges: `judge` (applicability guard first: `null` when the
 * exchange is not its business) and, required with it, `informative`: whether a judged exchange
 * could have shown a violation. There is no default: an answer is evidence only when the check
 * says so.
 */
interface ExchangeCheck extends CheckBase {
  judge(ctx: CheckContext, exchange: Exchange): Finding[] | null;
  /**
   * Whether a judged exchange could have shown a violation; a string names the kind of evidence
   * it is, for a check whose parts need different answers (see `evidenceKinds`); a `NoEvidence`
   * says why it is none (the report's reason when the check saw no evidence at all).
   */
  informative(ctx: CheckContext, exchange: Exchange): EvidenceOf;
}

/** A check that judges only what it gathered itself (groups, the burst): its verdicts carry the evidence. */
interface GatheringCheck extends CheckBase {
  judge?: undefined;
  informative?: undefined;
}

/**
 * A conformance check: one that reads single exchanges (`judge` with its `informative`), or one
 * that only judges what it gathered (`plan` with `judgeGroup`, or `judgeBurst`), or both;
 * `plan` asks for requests of its own (preflights, comparisons, credential variants).
 */
export type Check = ExchangeCheck | GatheringCheck;
