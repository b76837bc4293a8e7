import type { Check } from "../types.ts";

const WHAT: Record<string, string> = {
  timeout: "no whole answer before the deadline",
  reset: "the connection was closed without a whole answer",
  "too-large": "the body is larger than any documented answer can be",
  malformed: "the answer is not valid HTTP",
  unreachable: "the target could not be reached",
};

/**
 * Every request gets a whole HTTP answer: headers and body within the per-answer deadline, a body
 * under the cap, no dropped connection. A failure is a finding of that endpoint; the run goes on.
 */
export const answersComplete: Check = {
  name: "answers-complete",
  title: "No whole answer",
  verifies:
    "Every request gets a whole HTTP answer: within the per-answer deadline, a body under the size cap, no reset connection or malformed response.",
  source:
    'info.description "Conventions" (every endpoint answers JSON or RSS); x-rate-limit (clients are served)',
  severity: "critical",
  judge(_ctx, exchange) {
    // A raw request (request-gate) that got a whole answer is its own check's; one that got none is this one's.
    if (exchange.request.wire && !exchange.failure) return null;
    if (!exchange.failure) return [];
    // A whole answer whose body does not decode is content-encoding's finding.
    if (exchange.failure.kind === "undecodable") return null;
    return [
      {
        code: `answers-complete/${exchange.failure.kind}`,
        title: `${exchange.request.method} ${exchange.request.pathname}: ${WHAT[exchange.failure.kind] ?? exchange.failure.kind} (${exchange.failure.message})`,
        received: exchange.failure.message,
        documented: "a whole HTTP answer",
      },
    ];
  },
  // Every request it judges could have got no whole answer.
  informative: () => true,
};
