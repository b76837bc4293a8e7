import type { components } from "../generated/api-types.ts";

export type Problem = components["schemas"]["Problem"];

/**
 * A non-2xx answer of the API, carrying its RFC 9457 problem body field by field so callers
 * can branch on `type` and show `errors[].name`. A body that is not a problem (a proxy's HTML
 * page) keeps `type: "about:blank"` and the status text, as RFC 9457 says.
 */
export class DealApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: Problem["errors"];
  /** Retry-After of a 429 that the client gave up waiting for, in seconds. */
  readonly retryAfterSeconds: number | undefined;
  /** The body as received (parsed JSON, or text). */
  readonly body: unknown;

  constructor(status: number, body: unknown, statusText = "", retryAfterSeconds?: number) {
    const problem = isProblem(body) ? body : undefined;
    const title = problem?.title ?? (statusText || `HTTP ${status}`);
    super(`${status} ${title}${problem?.detail ? `: ${problem.detail}` : ""}`);
    this.name = "DealApiError";
    this.status = status;
    this.type = problem?.type ?? "about:blank";
    this.title = title;
    this.detail = problem?.detail;
    this.errors = problem?.errors;
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
  }
}

function isProblem(body: unknown): body is Problem {
  return (
    body !== null &&
    typeof body === "object" &&
    typeof (body as Problem).type === "string" &&
    typeof (body as Problem).title === "string"
  );
}
