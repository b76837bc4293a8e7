/**
 * What each check can judge on traffic the suite did not send, from the check's own shape (a
 * single-answer `judge`, a `judgeGroup` of a relation, an `ignores` or an identical-body rule, the
 * `judgeBurst` of the 429 burst), and the true reason when it saw nothing to judge. The README's
 * passive table is generated from this (readme-table.ts).
 */
import type { Spec } from "../../src/spec/spec.ts";
import type { Check } from "../types.ts";

export type PassiveUse = "every exchange" | "client sequences" | "partly" | "suite only";

export interface Applicability {
  use: PassiveUse;
  /** What the traffic must hold, for the README and the report's reasons. */
  how: string;
}

/** How a check applies passively. */
export function applicability(spec: Spec, check: Check): Applicability {
  // A check with a passive reading of its own (FIXED) judges the burst besides: that part is the suite's.
  if (check.judgeBurst && !FIXED[check.name])
    return {
      use: "partly",
      how: "every 429: Retry-After within the window. The limit itself (the 61st refused, per client IP, preflights and refused requests not counted, served again after Retry-After) needs the suite's own 429 burst: not exercised: passive",
    };
  const relation = spec.relations().find(({ relation: r }) => check.name === `relation:${r.id}`);
  if (relation) {
    const vary = Object.entries(relation.relation.vary)
      .map(([p, v]) => `${p} ${Object.keys(v)[0]}`)
      .join(", ");
    const to = relation.relation.to?.operation;
    if (to)
      return {
        use: "client sequences",
        how: `not paired from traffic: B is on another operation (${to}); judged on the suite's own A, B, A′ only`,
      };
    return {
      use: "client sequences",
      how: `one client's A, then B = A varied (${vary}), then A again: the data did not move in between`,
    };
  }
  const rule = spec.rules().find(({ rule: r }) => check.name === `rule:${r.id}`);
  if (rule?.rule.then.ignores)
    return {
      use: "client sequences",
      how: `every answer's status; the comparison when one client sends A, A with ${rule.rule.then.ignores.join(", ")} added, then A again`,
    };
  if (rule?.rule.then.uniformBody)
    return {
      use: "every exchange",
      how: `every 401 of ${rule.operation.operationId} (any client), compared with the first one seen`,
    };
  if (check.name === "credentials-not-cached")
    return {
      use: "client sequences",
      how: "a personal stream's URL asked without a key (any client) within 120 s after its owner was served with the key",
    };
  if (check.name === "head-as-get")
    return {
      use: "client sequences",
      how: "a client's HEAD of a URL within 120 s after its GET of the same URL",
    };
  // A fixed check that judges only what it sends itself (request-gate's raw requests): traffic never holds it.
  if (!check.judge && !rule)
    return {
      use: "suite only",
      how: "only the suite's own raw requests (dealkit conformance): what clients send does not hold them, and what a proxy refuses never reaches a recording",
    };
  const fixed = FIXED[check.name];
  if (fixed) return { use: "every exchange", how: fixed };
  if (rule)
    return {
      use: "every exchange",
      how: rule.rule.when
        ? `answers of ${rule.operation.operationId} to requests its \`when\` holds for`
        : `every answer of ${rule.operation.operationId}`,
    };
  return { use: "every exchange", how: "every exchange of the API" };
}

/** What traffic each fixed single-answer check reads. */
const FIXED: Record<string, string> = {
  "status-code-documented": "every answer of an operation",
  "content-type": "every answer with a documented status",
  "response-schema": "every answer with a documented status and media type",
  "response-headers": "every answer with a documented status (Retry-After on 429s)",
  "valid-inputs-accepted":
    "answers to valid requests (no parameter error, no refusing rule; a personal stream's key not answered 401)",
  "invalid-inputs-rejected":
    "answers to invalid requests (a client's mistakes: a limit out of range, a duplicate)",
  "no-server-errors": "every answer to a GET of the API",
  "answers-complete":
    "every exchange: a reset, a malformed answer or an unreachable upstream (a body over the cap is not judged)",
  cors: "every answer; preflights when the traffic holds them (a browser's)",
  "query-decoding":
    "every answer to a request whose query holds a value that does not decode (%zz, cut UTF-8)",
  "options-answered": "every OPTIONS without Access-Control-Request-Method (not a preflight)",
  versioning: "every 200 whose body satisfies the current schema",
  "content-encoding":
    "every answer: its coding against the client's Accept-Encoding, its Vary, its body decoding",
  "cache-control":
    "every answer: its Cache-Control for its kind, and signs a cache answered (Age, X-Cache HIT)",
  "meta-limits": "every 200 of getMeta",
  "rate-limit-reset":
    "every answer carrying RateLimit-Reset and RateLimit-Remaining; its bound from the burst's timing needs the suite's 429 burst",
};

/** Why a check saw nothing to judge in this traffic (passive). */
export function passiveReason(
  spec: Spec,
  check: Check,
  evidence: { cases: number; informative: number; inconclusive: string[]; none?: Record<string, number> },
): string {
  const { use } = applicability(spec, check);
  if (use === "partly")
    return `passive: the rate limit needs the suite's own 429 burst (dealkit conformance); ${evidence.cases} 429 answers judged for Retry-After`;
  if (use === "suite only")
    return "passive: it judges only the suite's own raw requests (dealkit conformance)";
  if (evidence.inconclusive.length > 0) return `inconclusive: ${evidence.inconclusive[0]}`;
  // The check's own reason its answers were no evidence (no schema, no frozen release for this operation).
  const [none, n] = Object.entries(evidence.none ?? {}).sort((a, b) => b[1] - a[1])[0] ?? [];
  if (none && evidence.informative === 0)
    return `passive: ${none} (${n} exchange${n === 1 ? "" : "s"} judged)`;
  const rule = spec.rules().find(({ rule: r }) => check.name === `rule:${r.id}`);
  if (rule?.rule.then.uniformBody && evidence.informative === 0)
    return `passive: fewer than two 401 answers of ${rule.operation.operationId} seen`;
  if (check.name === "credentials-not-cached" && evidence.informative === 0)
    return "passive: no personal stream's URL was asked without its key after its owner was served";
  const crossing = spec.relations().find(({ relation: r }) => check.name === `relation:${r.id}`)?.relation.to;
  if (crossing && evidence.informative === 0)
    return `passive: its second request is on another operation (${crossing.operation}); traffic is paired within one operation`;
  if (use === "client sequences" && evidence.informative === 0)
    return check.name.startsWith("relation:")
      ? "passive: no client sent a first request, its variant and the first again back to back"
      : `passive: ${evidence.cases} answers judged; no client sent a request, its variant and the request again back to back`;
  if (evidence.cases === 0)
    return check.operationId
      ? `passive: no exchange of ${check.operationId} it applies to was seen`
      : "passive: no exchange it applies to was seen";
  return `passive: ${evidence.cases} exchanges judged, none could show a violation (empty or too few items)`;
}
