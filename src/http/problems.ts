import type { Rule } from "../rules/types.ts";
import type { ParamError } from "../spec/request.ts";
import type { Spec } from "../spec/spec.ts";

export const PROBLEM_JSON = "application/problem+json";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: ParamError[];
}

/**
 * A problem body from the spec's one catalogue (x-problem-types): type, title, status and the
 * default detail come from there, so every error the server sends is documented.
 */
export function problem(
  spec: Spec,
  code: string,
  extra: { detail?: string; errors?: ParamError[] } = {},
): Problem {
  const entry = spec.problemTypes[code];
  if (!entry) throw new Error(`problem type ${code} is not in x-problem-types`);
  const body: Problem = {
    type: `/problems/${code}`,
    title: entry.title,
    status: entry.status,
    detail: extra.detail ?? entry.detail,
  };
  if (extra.errors?.length) body.errors = extra.errors;
  return body;
}

/**
 * The answer to a request an x-conformance rule refuses: its problem type, each parameter it names
 * with the rule's client-facing reason (`problem.reason`; the summary is the suite's wording), and
 * the parameter errors found on the way, so nothing the client got wrong goes unmentioned.
 */
export function refusedByRule(spec: Spec, rule: Rule, paramErrors: ParamError[] = []): Problem {
  const code = rule.then.problem?.type ?? "invalid-parameter";
  const reason = rule.then.problem?.reason ?? rule.summary;
  const named = new Set(paramErrors.map((e) => e.name));
  const errors = [
    ...paramErrors,
    ...(rule.then.problem?.params ?? [])
      .filter((name) => !named.has(name))
      .map((name) => ({ in: "query" as const, name, reason })),
  ];
  const detail =
    code === "invalid-parameter" ? errors.map((e) => `${e.name}: ${e.reason}`).join("; ") : undefined;
  return problem(spec, code, { errors, detail });
}

/** The 400 for parameters that fail the spec: the detail lists each one. */
export function invalidParameters(spec: Spec, errors: ParamError[]): Problem {
  return problem(spec, "invalid-parameter", {
    errors,
    detail: errors.map((e) => `${e.name}: ${e.reason}`).join("; "),
  });
}

/**
 * The 429 body: its detail gives the same wait as the Retry-After header, and the limit in force
 * (a server configured with another limit says that one, as its headers do).
 */
export function rateLimited(
  spec: Spec,
  retryAfterSeconds: number,
  policy: { limit: number; windowSeconds: number } = {
    limit: spec.rateLimit.limit,
    windowSeconds: spec.rateLimit.window_seconds,
  },
): Problem {
  return problem(spec, "rate-limited", {
    detail: `More than ${policy.limit} requests from this IP within ${policy.windowSeconds} seconds; retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`,
  });
}
