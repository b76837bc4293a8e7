/**
 * What stands behind the rate-limit findings: a deployment whose manifest states another limit, a
 * limiter in front answering for the API (its own 429 or 403 pages), a limiter of another shape,
 * one that counts preflights. What a cache replaying refusals makes the limiter look like (another
 * shape, clients counted together) follows from the cache; what a limiter in front does (its shape,
 * counting preflights) follows from it.
 */
import { PREFLIGHTS_COUNTED } from "../checks/rate-limit.ts";
import type { Violation } from "../types.ts";
import { type Candidate, type CauseInput, looks, type StatedRate } from "./causes.ts";

const SHAPE = ["rate-limit/not-enforced", "rate-limit/refills-early"];

/** What the burst measured, as the shape findings carry it. */
interface Measured {
  served: number;
  seconds: number;
  limit: number;
  windowSeconds: number;
}

/** The rows that measure the limiter's shape. */
const shapeRows = (v: Violation) => SHAPE.includes(v.code) || v.code === "rate-limit/remaining-not-counting";

const measuredOf = (v: Violation | undefined) => v?.received as Measured | undefined;

/** The shape in brief: what a client gets over a window, and how it refills. */
function shapeInBrief(shape: Violation): string {
  const m = measuredOf(shape);
  if (!m?.served) return shape.title;
  return (
    `it lets ${m.served} requests through within ${m.seconds} s from one address (limit ${m.limit} per ${m.windowSeconds} s)` +
    (shape.code === "rate-limit/refills-early" ? ", refilling within seconds (a leaky or token bucket)" : "")
  );
}

/** The manifest states another limit than the spec's, and what it states. */
function manifestDiffers(input: CauseInput): StatedRate | undefined {
  const stated = input.census.manifestRate;
  const contract = input.spec.rateLimit;
  if (!stated) return undefined;
  return stated.limit !== contract.limit || stated.windowSeconds !== contract.window_seconds
    ? stated
    : undefined;
}

export function limitCauses(input: CauseInput, keys: Candidate[]): Candidate[] {
  const { spec, violations, census } = input;
  const limited = spec.rateLimit.status;
  const contract = `${spec.rateLimit.limit} per ${spec.rateLimit.window_seconds} s`;
  const candidates: Candidate[] = [];
  const rateRows = (v: Violation) => v.check === "rate-limit";
  const shape = violations.find((v) => SHAPE.includes(v.code));
  // Counted preflights shown (counts-preflight), or one of the explanations an early refusal fits.
  const preflight = violations.find(
    (v) =>
      v.code === "rate-limit/counts-preflight" ||
      (v.code === "rate-limit/refused-early" && v.title.includes(PREFLIGHTS_COUNTED)),
  );
  const perIp = violations.find((v) => v.code === "rate-limit/per-ip");

  // A cache that replays refusals and RateLimit-* makes the limiter look like what it is not.
  const cacheReplaysLimits =
    keys.some((c) => c.id === "cache-answered") &&
    (census.cached.refusals > 0 || census.cached.rateLimit > 0);
  if (cacheReplaysLimits) {
    if (perIp)
      candidates.push({
        id: "counted-together",
        parent: "cache-answered",
        title: `Clients look counted together only because the cache gives every client the ${limited} it stored for one`,
        evidence: [perIp.title],
        explains: (v) => v.code === "rate-limit/per-ip",
      });
    const rest = violations.find((v) => rateRows(v) && v !== perIp);
    if (rest)
      candidates.push({
        id: "limiter-shape",
        parent: "cache-answered",
        title: `The limiter measured through the cache is not the API's: answers and ${limited}s replayed from storage were never counted`,
        evidence: [rest.title],
        explains: rateRows,
      });
  }

  const manifest = manifestDiffers(input);
  const measured = measuredOf(shape);
  // The measured shape is the manifest's limit at work when no more got through than it allows.
  const withinManifest =
    manifest !== undefined &&
    shape !== undefined &&
    measured?.served !== undefined &&
    measured.served <= manifest.limit;
  if (manifest) {
    const stated = `${manifest.limit} per ${manifest.windowSeconds} s`;
    candidates.push({
      id: "manifest-rate-limit",
      title: `The deployment runs another rate limit than the contract's: the manifest says ${stated}; the contract says ${contract}`,
      evidence: [
        `GET /api/v1/meta states rate_limit ${stated} (limit ${manifest.limit}, window_seconds ${manifest.windowSeconds})`,
        ...(withinManifest && measured
          ? [
              `${measured.served} served within ${measured.seconds} s from one client address: within the manifest's ${manifest.limit}, over the contract's ${spec.rateLimit.limit}`,
            ]
          : []),
      ],
      explains: (v) =>
        (v.check === "rule:meta-mirrors-spec" &&
          JSON.stringify([v.title, v.received]).includes("rate_limit")) ||
        (v.check === "response-headers" && /ratelimit-limit/.test(v.code) && v.answer?.rateLimit === true) ||
        (withinManifest && shapeRows(v)),
    });
  }

  const foreign = census.foreignStatuses();
  const foreign429 = foreign.find((f) => f.status === limited);
  // A limiter in front refusing with a page of its own status (the rate-limit check saw it refuse).
  const refusedWith = violations.find((v) => v.code === "rate-limit/refused-not-429");
  const refusalStatus = (refusedWith?.received as { status?: number } | undefined)?.status;
  const foreignRefusal = foreign.find((f) => f.status === refusalStatus);
  const refusal = foreign429 ?? foreignRefusal;
  const inFront = refusal !== undefined || (shape !== undefined && census.noRateLimitHeaders && !manifest);
  if (inFront) {
    candidates.push({
      id: "limiter-in-front",
      title:
        (refusal ? "A" : "Likely a") +
        " limiter in front of the API answers the rate limit, not the API's own" +
        (foreign429 ? `: its ${limited}s are ${looks(foreign429.sample)}` : "") +
        (!foreign429 && foreignRefusal
          ? `: it refuses with its own ${foreignRefusal.status} pages (${looks(foreignRefusal.sample)}), not ${limited}`
          : "") +
        (census.noRateLimitHeaders ? "; no answer carries RateLimit-* headers" : ""),
      evidence: [
        ...(refusal ? [`${refusal.count} answers ${refusal.status}: ${looks(refusal.sample)}`] : []),
        ...(refusedWith ? [refusedWith.title] : []),
        ...(census.noRateLimitHeaders
          ? ["no served answer carries RateLimit-Limit or RateLimit-Remaining"]
          : []),
        ...(!refusal && shape ? [shape.title] : []),
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
    });
  }

  const shapeParent = cacheReplaysLimits ? "cache-answered" : inFront ? "limiter-in-front" : undefined;
  if (preflight && !cacheReplaysLimits) {
    // Shown by the countdown (counts-preflight without "likely"), or only one explanation that fits.
    const likely = preflight.code !== "rate-limit/counts-preflight" || /\blikely\b/.test(preflight.title);
    candidates.push({
      id: "limiter-counts-preflight",
      ...(shapeParent ? { parent: shapeParent } : {}),
      title: `${likely ? "Likely, the" : "The"} limiter counts CORS preflights (OPTIONS), which the contract leaves uncounted`,
      evidence: [preflight.title],
      ...(likely
        ? {
            likely: true as const,
            confirm: `send ${spec.rateLimit.limit} GETs without preflights from a fresh address: all are served`,
          }
        : {}),
      explains: (v) => v === preflight,
    });
  }
  if (shape && !cacheReplaysLimits && !withinManifest) {
    candidates.push({
      id: "limiter-shape",
      ...(shapeParent ? { parent: shapeParent } : {}),
      title: `${shapeParent ? "Its" : "The"} rate limit is not the contract's sliding window: ${shapeInBrief(shape)}`,
      evidence: [shape.title],
      explains: shapeRows,
    });
  }

  for (const f of foreign.filter((x) => x.status !== limited && x.status !== refusalStatus)) {
    candidates.push({
      id: `another-component-${f.status}`,
      title: `Another component in front answers ${f.status} itself, not the API: ${looks(f.sample)}`,
      evidence: [`${f.count} answers ${f.status}: ${looks(f.sample)}`],
      explains: (v) => v.answer?.status === f.status,
    });
  }
  return candidates;
}
