import type { Check } from "../types.ts";

/** No input, however odd (fuzzed names and values, duplicates, unicode), makes the server fail. */
export const noServerErrors: Check = {
  name: "no-server-errors",
  title: "Server error",
  verifies: "No request (valid, invalid or fuzzed query strings) is answered 5xx.",
  source: 'info.description "Errors": never a 500',
  severity: "critical",
  judge(_ctx, exchange) {
    // A raw request (request-gate) is judged by its own check alone.
    if (exchange.request.method !== "GET" || exchange.failure || exchange.request.wire) return null;
    if (exchange.status < 500) return [];
    return [
      {
        code: "no-server-errors",
        title: `${exchange.request.pathname} answered ${exchange.status}`,
        received: { status: exchange.status, body: exchange.text.slice(0, 300) },
        documented: "< 500",
      },
    ];
  },
  // Every answered GET could have been a 5xx.
  informative: () => true,
};
