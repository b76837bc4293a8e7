/**
 * What stands behind the rate-limit findings: a deployment whose manifest states another limit, a
 * limiter in front answering for the API (its own 429 or 403 pages), a limiter of another shape,
 * one that counts preflights. What a cache replaying refusals makes the limiter look like (another
 * shape, clients counted together) follows from the cache; what a limiter in front does (its shape,
 * counting preflights) follows from it.
 */
import { PREFLIGHTS_COUNTED } from "../checks/rate-limit.ts";
import type { Violation } from "../types.ts";
import { type AnswerFacts, type Candidate, type CauseInput, looks, type StatedRate } from "./causes.ts";

const SHAPE = ["rate-limit/not-enforced", "rate-limit/refills-early", "rate-limit/resets-whole"];

/** What the burst measured, as the shape findings carry it. */
interface Measured {
  served: number;
  seconds: number;
  limit: number;
  windowSeconds: number;
}

/** The rows that measure the limiter's shape. */
const shapeRows = (v: Violation) => SHAPE.includes(v.code) || v.code === "rate-limit/remaining-not-counting";
const rateRows = (v: Violation) => v.check === "rate-limit";
const measuredOf = (v: Violation | undefined) => v?.received as Measured | undefined;

/** The findings and facts every limit cause is drawn from, read once. */
interface LimitFacts extends CauseInput {
  /** The contract's refusal status (429). */
  status: number;
  shape?: Violation;
  /** Counted preflights shown (counts-preflight), or one of the explanations an early refusal fits. */
  preflight?: Violation;
  perIp?: Violation;
  /** A cache in front replays refusals or RateLimit-*: what the burst measured is the cache's doing. */
  cacheReplaysLimits: boolean;
  /** The manifest's own limit, when it is not the contract's. */
  manifest?: StatedRate;
  /** The shape measured is the manifest's limit at work (no more got through than it allows). */
  withinManifest: boolean;
  /** The refusals of a limiter in front: its 429 pages, or pages of another status it refused with. */
  refusal?: { status: number; count: number; sample: AnswerFacts };
  refusedWith?: Violation;
}

function factsOf(input: CauseInput, keys: Candidate[]): LimitFacts {
  const { spec, violations, census } = input;
  const status = spec.rateLimit.status;
  const shape = violations.find((v) => SHAPE.includes(v.code));
  const stated = census.manifestRate;
  const manifest =
    stated &&
    (stated.limit !== spec.rateLimit.limit || stated.windowSeconds !== spec.rateLimit.window_seconds)
      ? stated
      : undefined;
  const served = measuredOf(shape)?.served;
  const refusedWith = violations.find((v) => v.code === "rate-limit/refused-not-429");
  const refusedWithStatus = (refusedWith?.received as { status?: number } | undefined)?.status;
  const preflight = violations.find(
    (v) =>
      v.code === "rate-limit/counts-preflight" ||
      (v.code === "rate-limit/refused-early" && v.title.includes(PREFLIGHTS_COUNTED)),
  );
  const perIp = violations.find((v) => v.code === "rate-limit/per-ip");
  const foreign = census.foreignStatuses();
  const refusal =
    foreign.find((f) => f.status === status) ?? foreign.find((f) => f.status === refusedWithStatus);
  return {
    ...input,
    status,
    ...(shape ? { shape } : {}),
    ...(preflight ? { preflight } : {}),
    ...(perIp ? { perIp } : {}),
    cacheReplaysLimits:
      keys.some((c) => c.id === "cache-answered") &&
      (census.cached.byStatus.has(status) || census.cached.rateLimit > 0),
    ...(manifest ? { manifest } : {}),
    withinManifest: manifest !== undefined && served !== undefined && served <= manifest.limit,
    ...(refusal ? { refusal } : {}),
    ...(refusedWith ? { refusedWith } : {}),
  };
}

/** A cache replaying refusals: another client refused, and whatever the burst measured, follow from it. */
function cacheConsequences(f: LimitFacts): Candidate[] {
  if (!f.cacheReplaysLimits) return [];
  const perIp = f.perIp;
  const rest = f.violations.find((v) => rateRows(v) && v !== perIp);
  return [
    ...(perIp
      ? [
          {
            id: "counted-together",
            parent: "cache-answered",
            title: `Clients look counted together only because the cache gives every client the ${f.status} it stored for one`,
            evidence: [perIp.title],
            explains: (v: Violation) => v === perIp,
          },
        ]
      : []),
    ...(rest
      ? [
          {
            id: "limiter-shape",
            parent: "cache-answered",
            title: `The limiter measured through the cache is not the API's: answers and ${f.status}s replayed from storage were never counted`,
            evidence: [rest.title],
            explains: rateRows,
          },
        ]
      : []),
  ];
}

/** The manifest states its own limit: that limit, with its value, and what the burst measured of it. */
function manifestCause(f: LimitFacts): Candidate[] {
  const { manifest, spec } = f;
  if (!manifest) return [];
  const stated = `${manifest.limit} per ${manifest.windowSeconds} s`;
  const measured = measuredOf(f.shape);
  return [
    {
      id: "manifest-rate-limit",
      title: `The deployment runs another rate limit than the contract's: the manifest says ${stated}; the contract says ${spec.rateLimit.limit} per ${spec.rateLimit.window_seconds} s`,
      evidence: [
        `GET /api/v1/meta states rate_limit ${stated} (limit ${manifest.limit}, window_seconds ${manifest.windowSeconds})`,
        ...(f.withinManifest && measured
          ? [
              `${measured.served} served within ${measured.seconds} s from one client address: within the manifest's ${manifest.limit}, over the contract's ${spec.rateLimit.limit}`,
            ]
          : []),
      ],
      explains: (v) =>
        (v.check === "rule:meta-mirrors-spec" &&
          JSON.stringify([v.title, v.received]).includes("rate_limit")) ||
        (f.withinManifest && shapeRows(v)),
    },
  ];
}

/**
 * A limiter in front answers for the API: its own pages refuse (429 or another status), or, only
 * likely, a limiter of another shape whose answers carry no RateLimit-* at all.
 */
function limiterInFront(f: LimitFacts): Candidate[] {
  const { refusal, census, status } = f;
  if (!refusal && !(f.shape && census.noRateLimitHeaders && !f.manifest)) return [];
  const pages = refusal
    ? refusal.status === status
      ? `: its ${status}s are ${looks(refusal.sample)}`
      : `: it refuses with its own ${refusal.status} pages (${looks(refusal.sample)}), not ${status}`
    : "";
  return [
    {
      id: "limiter-in-front",
      title:
        `${refusal ? "A" : "Likely a"} limiter in front of the API answers the rate limit, not the API's own${pages}` +
        (census.noRateLimitHeaders ? "; no answer carries RateLimit-* headers" : ""),
      evidence: [
        ...(refusal ? [`${refusal.count} answers ${refusal.status}: ${looks(refusal.sample)}`] : []),
        ...(f.refusedWith ? [f.refusedWith.title] : []),
        ...(census.noRateLimitHeaders
          ? ["no served answer carries RateLimit-Limit or RateLimit-Remaining"]
          : []),
        ...(!refusal && f.shape ? [f.shape.title] : []),
      ],
      ...(refusal
        ? {}
        : {
            likely: true as const,
            confirm:
              "look at a refusal: a limiter in front answers with a page of its own (its Server, no CORS)",
          }),
      explains: (v) =>
        (refusal !== undefined && v.answer?.status === refusal.status) ||
        rateRows(v) ||
        (census.noRateLimitHeaders && v.check === "response-headers" && /ratelimit-/.test(v.code)),
    },
  ];
}

/** What the limiter does (counts preflights, has another shape): under the limiter in front, or on its own. */
function limiterTraits(f: LimitFacts, parent: string | undefined): Candidate[] {
  if (f.cacheReplaysLimits) return [];
  const { preflight, shape } = f;
  const under = parent ? { parent } : {};
  // Shown by the countdown (counts-preflight without "likely"), or one explanation that fits.
  const likely =
    preflight !== undefined &&
    (preflight.code !== "rate-limit/counts-preflight" || /\blikely\b/.test(preflight.title));
  return [
    ...(preflight
      ? [
          {
            id: "limiter-counts-preflight",
            ...under,
            title: `${likely ? "Likely, the" : "The"} limiter counts CORS preflights (OPTIONS), which the contract leaves uncounted`,
            evidence: [preflight.title],
            ...(likely
              ? {
                  likely: true as const,
                  confirm: `send ${f.spec.rateLimit.limit} GETs without preflights from a fresh address: all are served`,
                }
              : {}),
            explains: (v: Violation) => v === preflight,
          },
        ]
      : []),
    ...(shape && !f.withinManifest
      ? [
          {
            id: "limiter-shape",
            ...under,
            title: `${parent ? "Its" : "The"} rate limit is not the contract's sliding window: ${shapeInBrief(shape)}`,
            evidence: [shape.title],
            explains: shapeRows,
          },
        ]
      : []),
  ];
}

/** The shape in brief: what a client gets over a window, and how it refills. */
function shapeInBrief(shape: Violation): string {
  const m = measuredOf(shape);
  if (!m?.served) return shape.title;
  return (
    `it lets ${m.served} requests through within ${m.seconds} s from one address (limit ${m.limit} per ${m.windowSeconds} s)` +
    (shape.code === "rate-limit/refills-early"
      ? ", refilling within seconds (a leaky or token bucket)"
      : "") +
    (shape.code === "rate-limit/resets-whole" ? ", whole again at a boundary (a fixed window)" : "")
  );
}

/** Every other status only another component answers (its pages, not the API's answers). */
function otherComponents(f: LimitFacts): Candidate[] {
  return f.census
    .foreignStatuses()
    .filter((x) => x.status !== f.status && x.status !== f.refusal?.status)
    .map((x) => ({
      id: `another-component-${x.status}`,
      title: `Another component in front answers ${x.status} itself, not the API: ${looks(x.sample)}`,
      evidence: [`${x.count} answers ${x.status}: ${looks(x.sample)}`],
      explains: (v: Violation) => v.answer?.status === x.status,
    }));
}

export function limitCauses(input: CauseInput, keys: Candidate[]): Candidate[] {
  const facts = factsOf(input, keys);
  const inFront = limiterInFront(facts);
  return [
    ...cacheConsequences(facts),
    ...manifestCause(facts),
    ...inFront,
    ...limiterTraits(facts, inFront.length > 0 ? "limiter-in-front" : undefined),
    ...otherComponents(facts),
  ];
}
