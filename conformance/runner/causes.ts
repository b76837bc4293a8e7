/**
 * Root causes before rows. One defect of the stack in front of an API (a proxy's own error page, a
 * limiter of another shape, a cache answering from storage) breaks many rows at once: nginx's own
 * 429 fails content-type, cors and response-headers on every operation. A cause is a claim about
 * someone's deployment, so it is stated with the evidence that shows it (the answers themselves:
 * media type, CORS and RateLimit-* headers present on the API's own answers and absent on these,
 * Server/Via, a cache's status headers, a replayed Date; the manifest; the findings that measure a
 * limiter), marked `likely` with what would confirm it when that evidence is partial, and never
 * stated without any. What follows from a cause (a cache replaying 429s also replays RateLimit-*)
 * goes under it (`follows`), not beside it. Findings no known cause explains stay as they are.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { cacheEvidence } from "../http/cache-evidence.ts";
import type { Exchange, Severity, Violation } from "../types.ts";
import { gateCauses } from "./causes-of-gate.ts";
import { keyCauses } from "./causes-of-keys.ts";
import { limitCauses } from "./causes-of-limits.ts";

/** What a report keeps of the answer a finding came from: the headers that tell who made it. */
export interface AnswerFacts {
  status: number;
  mediaType?: string;
  cors: boolean;
  rateLimit: boolean;
  retryAfter: boolean;
  server?: string;
  via?: string;
  /** Headers saying a cache answered from its storage (Age, X-Cache HIT...). */
  cache: string[];
  /** An earlier answer to the same URL it repeats (runner/replays.ts). */
  replayed?: string;
}

export function answerFacts(e: Exchange): AnswerFacts {
  const h = e.headers;
  return {
    status: e.status,
    ...(e.mediaType ? { mediaType: e.mediaType } : {}),
    cors: h["access-control-allow-origin"] !== undefined,
    rateLimit: h["ratelimit-limit"] !== undefined || h["ratelimit-remaining"] !== undefined,
    retryAfter: h["retry-after"] !== undefined,
    ...(h.server ? { server: h.server } : {}),
    ...(h.via ? { via: h.via } : {}),
    cache: cacheEvidence(h),
    ...(e.replayed ? { replayed: e.replayed } : {}),
  };
}

/** What shows an answer came from a cache's storage: its headers, or the earlier answer it repeats. */
export const storedSigns = (f: AnswerFacts | undefined) => [
  ...(f?.cache ?? []),
  ...(f?.replayed ? [`it repeats ${f.replayed}`] : []),
];

/** An answer a cache gave from its storage, as its own headers or a replayed Date show. */
export const fromCache = (f: AnswerFacts | undefined) => storedSigns(f).length > 0;

export interface Cause {
  /**
   * `cache-answered`, `credentials-ignored`, `credentials-unguarded`, `manifest-rate-limit`,
   * `limiter-in-front`, `limiter-shape`, `limiter-counts-preflight`, `counted-together`,
   * `another-component-<status>` or `another-component-gate` (request-gate's raw requests).
   */
  id: string;
  severity: Severity;
  /** The claim; a hypothesis says "likely" in it. */
  title: string;
  /** What shows it, one line each: never empty (a cause without evidence is not stated). */
  evidence: string[];
  /** The evidence is partial: a hypothesis, with what would confirm it. */
  likely?: true;
  /** What would confirm a likely cause (set with `likely`). */
  confirm?: string;
  /** Causes that follow from this one (what the cache or the limiter in front also does), each with its own rows. */
  follows?: Cause[];
  /** The checks and operations whose findings it explains (its followers' included), and how many findings. */
  checks: string[];
  operations: string[];
  count: number;
}

const SEVERITY: Severity[] = ["critical", "high", "medium", "low"];
const worst = (list: Severity[]) => SEVERITY.find((s) => list.includes(s)) ?? "low";

/** The answers of one status, counted by what the API's own answers carry and these lack. */
interface StatusTally {
  total: number;
  /** HTML pages: the API never answers one. */
  html: number;
  /** HTML pages, or answers without CORS (foreign when every API answer carried it). */
  htmlOrNoCors: number;
  sample?: AnswerFacts;
}

/** The rate limit a manifest (GET /api/v1/meta) states. */
export interface StatedRate {
  limit: number;
  windowSeconds: number;
}

/**
 * Every judged answer's facts, tallied by status, so that a status another component answers
 * (every answer of it foreign) stands out against the API's own (2xx answers carrying CORS); the
 * answers a cache gave from storage; the rate limit the manifest states. Decided at the end: the
 * order answers came in does not matter.
 */
export class AnswerCensus {
  private readonly byStatus = new Map<number, StatusTally>();
  private apiCors = 0;
  private apiRateLimit = 0;
  private api = 0;
  /** Answers a cache gave from its storage: how many of each status, and how many carried RateLimit-*. */
  readonly cached = { byStatus: new Map<number, number>(), rateLimit: 0 };
  /** What the manifest states, from its first served answer. */
  manifestRate?: StatedRate;

  add(e: Exchange): void {
    if (e.failure || e.request.method !== "GET" || !e.operation || e.status === 0) return;
    const facts = answerFacts(e);
    if (fromCache(facts)) {
      this.cached.byStatus.set(facts.status, (this.cached.byStatus.get(facts.status) ?? 0) + 1);
      if (facts.rateLimit) this.cached.rateLimit++;
    }
    if (facts.status >= 200 && facts.status < 300) {
      this.api++;
      if (facts.cors) this.apiCors++;
      if (facts.rateLimit) this.apiRateLimit++;
      if (e.operation.operationId === "getMeta") this.manifestRate ??= statedRate(e.body);
      return;
    }
    const tally = this.byStatus.get(facts.status) ?? { total: 0, html: 0, htmlOrNoCors: 0 };
    tally.total++;
    const html = facts.mediaType === "text/html";
    if (html) tally.html++;
    if (html || !facts.cors) {
      tally.htmlOrNoCors++;
      tally.sample ??= facts;
    }
    this.byStatus.set(facts.status, tally);
  }

  /** Statuses every answer of which another component made, with a sample of what they look like. */
  foreignStatuses(): { status: number; count: number; sample: AnswerFacts }[] {
    const apiCarriesCors = this.api > 0 && this.apiCors === this.api;
    return [...this.byStatus]
      .filter(([, t]) => t.sample && (apiCarriesCors ? t.htmlOrNoCors : t.html) === t.total)
      .map(([status, t]) => ({ status, count: t.total, sample: t.sample as AnswerFacts }));
  }

  /** The API's own served answers all lacked RateLimit-* (no limiter of the API's is answering). */
  get noRateLimitHeaders(): boolean {
    return this.api > 0 && this.apiRateLimit === 0;
  }
}

/** The manifest's data.rate_limit, when it states one. */
function statedRate(body: unknown): StatedRate | undefined {
  const rl = (body as { data?: { rate_limit?: { limit?: unknown; window_seconds?: unknown } } } | null)?.data
    ?.rate_limit;
  return typeof rl?.limit === "number" && typeof rl.window_seconds === "number"
    ? { limit: rl.limit, windowSeconds: rl.window_seconds }
    : undefined;
}

/** What an answer of another component looks like, in a few words. */
export const looks = (f: AnswerFacts) =>
  [
    f.mediaType ?? "no content type",
    f.cors ? undefined : "no CORS",
    f.rateLimit ? undefined : "no RateLimit-*",
    f.status === 429 && !f.retryAfter ? "no Retry-After" : undefined,
    f.server ? `Server: ${f.server}` : undefined,
    f.via ? `Via: ${f.via}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");

/** A cause the findings may have, before it is known which findings it explains. */
export interface Candidate {
  id: string;
  title: string;
  evidence: string[];
  explains(v: Violation): boolean;
  /** A cause made of the findings alone (the cache's leak) is critical whatever the rows say. */
  severity?: Severity;
  likely?: true;
  confirm?: string;
  /** The cause this one follows from: stated under it when that one is stated. */
  parent?: string;
}

/** What the candidates of one family are drawn from. */
export interface CauseInput {
  spec: Spec;
  violations: Violation[];
  census: AnswerCensus;
}

/**
 * The causes the run's findings have, those explaining most findings first (severity second);
 * each violation explained by one is marked with the id of the top-level cause (`cause`). A cause
 * is reported only when it explains a finding and has evidence to show.
 */
export function findCauses(spec: Spec, violations: Violation[], census: AnswerCensus): Cause[] {
  const input = { spec, violations, census };
  const keys = keyCauses(input);
  const candidates = [...keys, ...gateCauses(input), ...limitCauses(input, keys)].filter(
    (c) => c.evidence.length > 0,
  );
  const stated = new Set(candidates.filter((c) => !c.parent).map((c) => c.id));
  const top = candidates.filter((c) => !c.parent || !stated.has(c.parent));
  const causes: Cause[] = [];
  for (const c of top) {
    // Followers first: what follows from this cause is claimed by the follower that names it.
    const follows = candidates
      .filter((f) => f.parent === c.id)
      .flatMap((f) => claim(f, violations, c.id) ?? []);
    const own = claim(c, violations, c.id);
    if (!own && follows.length === 0) continue;
    const all = [...(own ? [own] : []), ...follows];
    causes.push({
      ...statement(c, all),
      ...(follows.length ? { follows } : {}),
    });
  }
  return causes.sort(
    (a, b) => b.count - a.count || SEVERITY.indexOf(a.severity) - SEVERITY.indexOf(b.severity),
  );
}

/** The findings a candidate explains that no cause claimed yet, marked with `mark`; undefined when none. */
function claim(c: Candidate, violations: Violation[], mark: string): Cause | undefined {
  const explained = violations.filter((v) => v.cause === undefined && c.explains(v));
  if (explained.length === 0) return undefined;
  for (const v of explained) v.cause = mark;
  return statement(c, [
    {
      severity: worst(explained.map((v) => v.severity)),
      checks: explained.map((v) => v.check),
      operations: explained.map((v) => v.operation),
      count: explained.length,
    },
  ]);
}

/** A candidate stated, with what it explains (its own findings and its followers'). */
function statement(
  c: Candidate,
  parts: Pick<Cause, "severity" | "checks" | "operations" | "count">[],
): Cause {
  return {
    id: c.id,
    severity: c.severity ?? worst(parts.map((x) => x.severity)),
    title: c.title,
    evidence: c.evidence,
    ...(c.likely ? { likely: c.likely, confirm: c.confirm ?? "" } : {}),
    checks: [...new Set(parts.flatMap((x) => x.checks))],
    operations: [...new Set(parts.flatMap((x) => x.operations))],
    count: parts.reduce((n, x) => n + x.count, 0),
  };
}
