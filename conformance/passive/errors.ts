/**
 * The proxy's own answers, as problem+json (RFC 9457), one catalogue: what `dealkit proxy` says
 * in the upstream's place. The detail is written for the API client reading it (its test suite
 * fails on it); the suite's reports keep their own wording.
 */
import type { FindingRecord } from "./judging.ts";

export const PROBLEM_JSON = "application/problem+json";

export const PROXY_PROBLEMS = {
  "contract-violation": {
    status: 502,
    title: "The API's answer breaks its contract",
  },
  "upstream-unreachable": {
    status: 502,
    title: "The API could not be reached",
  },
} as const;

export type ProxyProblemCode = keyof typeof PROXY_PROBLEMS;

export interface ProxyProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  [extra: string]: unknown;
}

export function proxyProblem(
  code: ProxyProblemCode,
  detail: string,
  extra: Record<string, unknown> = {},
): ProxyProblem {
  const entry = PROXY_PROBLEMS[code];
  return { type: `urn:dealkit:proxy:${code}`, title: entry.title, status: entry.status, detail, ...extra };
}

/** The 502 `--errors` answers instead of an answer that breaks the contract: every rule it breaks, by name. */
export function violationProblem(method: string, path: string, status: number, findings: FindingRecord[]) {
  const checks = [...new Set(findings.map((f) => f.check))];
  return proxyProblem(
    "contract-violation",
    `The API answered ${status} to ${method} ${path}, and that answer breaks the deal-alert API contract: ` +
      `${findings.map((f) => `${f.check} (${f.title})`).join("; ")}. dealkit proxy --errors answered 502 instead of passing it on.`,
    {
      checks,
      upstreamStatus: status,
      violations: findings.map((f) => ({
        check: f.check,
        code: f.code,
        ...(f.rule ? { rule: f.rule } : {}),
        title: f.title,
        received: f.received,
        documented: f.documented,
      })),
    },
  );
}

/** Headers of the proxy's own answers: a browser client must be able to read them too. */
export const PROBLEM_HEADERS = {
  "content-type": PROBLEM_JSON,
  "access-control-allow-origin": "*",
  "cache-control": "no-store",
  "x-dealkit-proxy": "1",
};
