/**
 * Root causes before rows. One defect of the stack in front of an API (a proxy's own error page, a
 * limiter of another shape, a cache answering from storage) breaks many rows at once: nginx's own
 * 429 fails content-type, cors and response-headers on every operation. A cause is named from
 * evidence only: the answers themselves (media type, CORS and RateLimit-* headers present on the
 * API's own answers and absent on these, Server/Via, a cache's status headers) and the findings
 * that measure a limiter. Findings no known cause explains stay as they are.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { cacheEvidence } from "../http/cache-evidence.ts";
import type { Exchange, Severity, Violation } from "../types.ts";

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

export interface Cause {
  /** `cache-answered`, `limiter-in-front`, `limiter-shape` or `another-component-<status>`. */
  id: string;
  severity: Severity;
  title: string;
  /** What shows it, one line each. */
  evidence: string[];
  /** The checks and operations whose findings it explains, and how many findings. */
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

/**
 * Every judged answer's facts, tallied by status, so that a status another component answers
 * (every answer of it foreign) stands out against the API's own (2xx answers carrying CORS).
 * Decided at the end: the order answers came in does not matter.
 */
export class AnswerCensus {
  private readonly byStatus = new Map<number, StatusTally>();
  private apiCors = 0;
  private apiRateLimit = 0;
  private api = 0;

  add(e: Exchange): void {
    if (e.failure || e.request.method !== "GET" || !e.operation || e.status === 0) return;
    const facts = answerFacts(e);
    if (facts.status >= 200 && facts.status < 300) {
      this.api++;
      if (facts.cors) this.apiCors++;
      if (facts.rateLimit) this.apiRateLimit++;
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

const looks = (f: AnswerFacts) =>
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

interface Candidate {
  id: string;
  title: string;
  evidence: string[];
  explains(v: Violation): boolean;
  /** A cause made of the findings alone (the cache's leak) is critical whatever the rows say. */
  severity?: Severity;
}

/**
 * The causes the run's findings have, most severe first; each violation explained by one is
 * marked with its id (`cause`). A cause is reported only when it explains a finding.
 */
export function findCauses(spec: Spec, violations: Violation[], census: AnswerCensus): Cause[] {
  const limited = spec.rateLimit.status;
  const candidates: Candidate[] = [];
  const fromCache = (v: Violation) => (v.answer?.cache.length ?? 0) > 0 || v.answer?.replayed !== undefined;
  const cached = violations.filter(
    (v) => fromCache(v) || v.check === "credentials-not-cached" || v.code === "cache-control/from-cache",
  );
  if (cached.length > 0) {
    const signs = cached.flatMap((v) => [
      ...(v.answer?.cache ?? []),
      ...(v.answer?.replayed ? [v.answer.replayed] : []),
    ]);
    const headers = [...new Set(signs)].slice(0, 3);
    const leaks = cached.filter((v) => v.check === "credentials-not-cached").map((v) => v.operation);
    candidates.push({
      id: "cache-answered",
      severity: leaks.length > 0 ? "critical" : undefined,
      title:
        "A shared cache in front answers from its storage" +
        (leaks.length > 0
          ? `: it served ${[...new Set(leaks)].sort().join(" and ")} without the key (it keys on the URL, not on X-API-Key)`
          : "") +
        ", replaying other clients' answers and their RateLimit-* headers",
      evidence: [
        ...headers.map((h) => `answers repeat or carry ${h}`),
        ...cached.filter((v) => v.check === "credentials-not-cached").map((v) => v.title),
      ].slice(0, 4),
      // A finding on an answer the cache gave, whatever check it broke.
      explains: (v) => cached.includes(v),
    });
  }
  const foreign = census.foreignStatuses();
  const foreign429 = foreign.find((f) => f.status === limited);
  const shape = violations.find(
    (v) => v.code === "rate-limit/not-enforced" || v.code === "rate-limit/refills-early",
  );
  // The headline's short form of the shape: what a client gets over a window, and how it refills.
  const measured = shape?.received as
    | { served: number; seconds: number; limit: number; windowSeconds: number }
    | undefined;
  const shapeInBrief = measured?.served
    ? `it lets ${measured.served} requests through within ${measured.seconds} s from one address (limit ${measured.limit} per ${measured.windowSeconds} s)` +
      (shape?.code === "rate-limit/refills-early"
        ? ", refilling within seconds (a leaky or token bucket)"
        : "")
    : shape?.title;
  if (foreign429 || (shape && census.noRateLimitHeaders)) {
    candidates.push({
      id: "limiter-in-front",
      title:
        "A limiter in front of the API answers the rate limit, not the API's own" +
        (foreign429 ? `: its ${limited}s are ${looks(foreign429.sample)}` : "") +
        (census.noRateLimitHeaders ? "; no answer carries RateLimit-* headers" : "") +
        (shapeInBrief ? `; ${shapeInBrief}` : ""),
      evidence: [
        ...(foreign429 ? [`${foreign429.count} answers ${limited}: ${looks(foreign429.sample)}`] : []),
        ...(census.noRateLimitHeaders
          ? ["no served answer carries RateLimit-Limit or RateLimit-Remaining"]
          : []),
        ...(shape ? [shape.title] : []),
      ],
      explains: (v) =>
        v.answer?.status === limited ||
        v.check === "rate-limit" ||
        (census.noRateLimitHeaders && v.check === "response-headers" && /ratelimit-/.test(v.code)),
    });
  } else if (shape) {
    candidates.push({
      id: "limiter-shape",
      title: `The rate limit is not the contract's sliding window: ${shapeInBrief}`,
      evidence: [shape.title],
      explains: (v) => v.check === "rate-limit",
    });
  }
  for (const f of foreign.filter((x) => x.status !== limited)) {
    candidates.push({
      id: `another-component-${f.status}`,
      title: `Another component in front answers ${f.status} itself, not the API: ${looks(f.sample)}`,
      evidence: [`${f.count} answers ${f.status}: ${looks(f.sample)}`],
      explains: (v) => v.answer?.status === f.status,
    });
  }
  const causes: Cause[] = [];
  for (const c of candidates) {
    const explained = violations.filter((v) => v.cause === undefined && c.explains(v));
    if (explained.length === 0) continue;
    for (const v of explained) v.cause = c.id;
    causes.push({
      id: c.id,
      severity: c.severity ?? worst(explained.map((v) => v.severity)),
      title: c.title,
      evidence: c.evidence,
      checks: [...new Set(explained.map((v) => v.check))],
      operations: [...new Set(explained.map((v) => v.operation))],
      count: explained.length,
    });
  }
  return causes.sort((a, b) => SEVERITY.indexOf(a.severity) - SEVERITY.indexOf(b.severity));
}
