/**
 * The registry of checks: the fixed checks of conformance/checks/ and one `rule:<id>` check per
 * x-conformance rule of the spec. Names are unique; registering one twice is a programming error.
 */
import type { Spec } from "../src/spec/spec.ts";
import { answersComplete } from "./checks/answers-complete.ts";
import { cacheControl } from "./checks/cache-control.ts";
import { contentEncoding } from "./checks/content-encoding.ts";
import { contentType } from "./checks/content-type.ts";
import { cors } from "./checks/cors.ts";
import { credentialsNotCached } from "./checks/credentials-not-cached.ts";
import { headAsGet } from "./checks/head-as-get.ts";
import { invalidInputsRejected } from "./checks/invalid-inputs-rejected.ts";
import { metaLimits } from "./checks/meta-limits.ts";
import { noServerErrors } from "./checks/no-server-errors.ts";
import { optionsAnswered } from "./checks/options-answered.ts";
import { queryDecoding } from "./checks/query-decoding.ts";
import { rateLimit } from "./checks/rate-limit.ts";
import { rateLimitReset } from "./checks/rate-limit-reset.ts";
import { relationChecks } from "./checks/relations.ts";
import { requestGate } from "./checks/request-gate.ts";
import { responseHeaders } from "./checks/response-headers.ts";
import { responseSchema } from "./checks/response-schema.ts";
import { ruleChecks } from "./checks/rules.ts";
import { statusCodeDocumented } from "./checks/status-code-documented.ts";
import { validInputsAccepted } from "./checks/valid-inputs-accepted.ts";
import { versioning } from "./checks/versioning.ts";
import type { Check } from "./types.ts";

export class Registry {
  private readonly byName = new Map<string, Check>();

  register(check: Check): this {
    if (this.byName.has(check.name)) throw new Error(`a check named ${check.name} is already registered`);
    const missing = missingEvidenceRule(check);
    if (missing) throw new Error(`check ${check.name} ${missing}`);
    this.byName.set(check.name, check);
    return this;
  }

  get(name: string): Check | undefined {
    return this.byName.get(name);
  }

  all(): Check[] {
    return [...this.byName.values()];
  }
}

/**
 * What a check lacks to say what is evidence for it, if anything: nothing counts by default, so
 * one that judges single answers must say which are evidence (`informative`), and one that judges
 * only what it gathers must gather it (`plan` with `judgeGroup`, or `judgeBurst`), its verdicts
 * saying whether they were.
 */
export function missingEvidenceRule(check: Check): string | undefined {
  if (check.judge) {
    return typeof check.informative === "function"
      ? undefined
      : "judges single answers but does not say which are evidence (informative)";
  }
  if (check.judgeBurst) return undefined;
  if (check.judgeGroup)
    return check.plan ? undefined : "judges groups but plans none (plan): it would never see evidence";
  return "judges nothing";
}

/** Fixed checks, in report order. */
export const FIXED_CHECKS: Check[] = [
  statusCodeDocumented,
  contentType,
  responseSchema,
  responseHeaders,
  validInputsAccepted,
  invalidInputsRejected,
  queryDecoding,
  noServerErrors,
  answersComplete,
  contentEncoding,
  cors,
  headAsGet,
  optionsAnswered,
  cacheControl,
  credentialsNotCached,
  versioning,
  metaLimits,
  rateLimit,
  rateLimitReset,
  requestGate,
];

/** Every check for a spec: the fixed ones, then one per x-conformance rule, then one per x-relations relation. */
export function defaultRegistry(spec: Spec): Registry {
  const registry = new Registry();
  for (const check of [...FIXED_CHECKS, ...ruleChecks(spec), ...relationChecks(spec)])
    registry.register(check);
  return registry;
}

/**
 * Resolves --only/--skip names: exact check names, `rules` for every rule check, `relations` for
 * every relation check, or a prefix
 * ending in `*` (`rule:search-*`). Unknown names are an error (a typo must not pass silently).
 */
export function selectChecks(registry: Registry, only: string[] | undefined, skip: string[] = []): Check[] {
  const all = registry.all();
  const resolve = (name: string): Check[] => {
    const found =
      name === "rules" || name === "relations"
        ? all.filter((c) => c.name.startsWith(name === "rules" ? "rule:" : "relation:"))
        : name === "account"
          ? // The checks only an account can judge: `--skip account` without --uid, whatever rules the spec adds.
            all.filter((c) => c.needsAccount)
          : name.endsWith("*")
            ? all.filter((c) => c.name.startsWith(name.slice(0, -1)))
            : all.filter((c) => c.name === name);
    if (found.length === 0) throw new UnknownCheckError(name);
    return found;
  };
  const chosen = only ? new Set(only.flatMap(resolve)) : new Set(all);
  for (const c of skip.flatMap(resolve)) chosen.delete(c);
  return all.filter((c) => chosen.has(c));
}

export class UnknownCheckError extends Error {
  constructor(readonly checkName: string) {
    super(`no check named ${checkName}`);
  }
}
