/**
 * Who gave answers the API did not make for this request: a shared cache answering from its
 * storage (its own headers, or the owner's Date, RateLimit-Remaining and body replayed), or the
 * API itself serving a personal stream to a wrong key (a fresh answer: its own Date and
 * RateLimit-Remaining, another body, no cache header). The credentials check tells the two apart
 * per answer (checks/credentials-not-cached.ts whoAnswered); this names the cause of each.
 */
import type { AnsweredBy } from "../checks/credentials-not-cached.ts";
import type { Violation } from "../types.ts";
import { type Candidate, type CauseInput, fromCache, storedSigns } from "./causes.ts";

const CREDENTIALS = "credentials-not-cached";

interface KeyFinding {
  answeredBy: AnsweredBy;
  evidence: string[];
  variant?: string;
}

const keyFinding = (v: Violation) =>
  v.check === CREDENTIALS ? (v.received as KeyFinding | undefined) : undefined;

/** A rule on a personal stream's credentials answered 2xx on the same operation (rule:my-*-credentials). */
const credentialRule = (v: Violation, operations: Set<string>) =>
  v.check.startsWith("rule:") &&
  v.check.endsWith("-credentials") &&
  operations.has(v.operation) &&
  (v.answer?.status ?? 0) >= 200 &&
  (v.answer?.status ?? 0) < 300;

const list = (names: Iterable<string>) => [...new Set(names)].sort().join(" and ");

/** One evidence line per leaked answer: the operation, the request, what shows who answered. */
const lines = (found: Violation[]) =>
  found.map((v) => {
    const f = keyFinding(v) as KeyFinding;
    return `${v.operation}${f.variant ? `, ${f.variant}` : ""}: ${f.evidence.join("; ")}`;
  });

export function keyCauses({ spec, violations, census }: CauseInput): Candidate[] {
  const by = (who: AnsweredBy) => violations.filter((v) => keyFinding(v)?.answeredBy === who);
  const leakedByCache = by("cache");
  const leakedByApi = by("application");
  const unknown = by("unknown");
  const candidates: Candidate[] = [];

  const cacheOperations = new Set(leakedByCache.map((v) => v.operation));
  const cachedRows = violations.filter(
    (v) =>
      fromCache(v.answer) ||
      leakedByCache.includes(v) ||
      v.code === "cache-control/from-cache" ||
      credentialRule(v, cacheOperations),
  );
  if (cachedRows.length > 0) {
    // What each answer from storage showed, with the answer it was.
    const signs = cachedRows.flatMap((v) =>
      storedSigns(v.answer).map((sign) => `${v.answer?.status} answer of ${v.operation}: ${sign}`),
    );
    const refusals = census.cached.byStatus.get(spec.rateLimit.status) ?? 0;
    const replays = [
      refusals > 0 ? `stored ${spec.rateLimit.status} refusals (${refusals} seen)` : undefined,
      census.cached.rateLimit > 0 ? "their RateLimit-* headers" : undefined,
    ].filter(Boolean);
    candidates.push({
      id: "cache-answered",
      severity: leakedByCache.length > 0 ? "critical" : undefined,
      title:
        "A shared cache in front answers from its storage" +
        (leakedByCache.length > 0
          ? `: it served ${list(leakedByCache.map((v) => v.operation))} without the key (it keys on the URL, not on X-API-Key)`
          : "") +
        (replays.length > 0 ? `, replaying other clients' answers with ${replays.join(" and ")}` : ""),
      evidence: [...new Set([...lines(leakedByCache), ...signs])].slice(0, 4),
      explains: (v) => cachedRows.includes(v),
    });
  }

  const apiOperations = new Set(leakedByApi.map((v) => v.operation));
  if (leakedByApi.length > 0) {
    candidates.push({
      id: "credentials-ignored",
      severity: "critical",
      title: `The API itself serves ${list(apiOperations)} without checking the key: it answered 200 to requests without the owner's credentials, each a fresh answer (no cache in front answered)`,
      evidence: lines(leakedByApi).slice(0, 4),
      explains: (v) => leakedByApi.includes(v) || (!fromCache(v.answer) && credentialRule(v, apiOperations)),
    });
  }

  const unknownOperations = new Set(unknown.map((v) => v.operation));
  if (unknown.length > 0) {
    candidates.push({
      id: "credentials-unguarded",
      severity: "critical",
      title: `Likely a shared cache keyed on the URL, or the API not checking the key: ${list(unknownOperations)} served without the owner's key (the answers do not tell which)`,
      evidence: lines(unknown).slice(0, 4),
      likely: true,
      confirm:
        "ask the same URL without the key 2 s after the owner's request: a cache repeats the owner's Date and RateLimit-Remaining (or says HIT), the API answers with its own",
      explains: (v) => unknown.includes(v) || (!fromCache(v.answer) && credentialRule(v, unknownOperations)),
    });
  }
  return candidates;
}
