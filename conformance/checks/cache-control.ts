import { cacheEvidence, directives } from "../http/cache-evidence.ts";
import type { Check, Finding } from "../types.ts";
import { isServerError, routed } from "./guards.ts";

const WHY: Record<string, string> = {
  personal:
    "without it a shared cache keyed on the URL serves this account's answer to anyone asking the same URL (X-API-Key is no credential to a cache)",
  "rate-limited": "a cache may replay this client's refusal to others",
  public:
    "a cache may reuse it without asking the API: its RateLimit-* headers replayed, the request never counted",
};

/**
 * Every answer says how caches may keep it (x-caching), and no answer reaches a client from a
 * cache's storage without the API having been asked: a personal stream's (its 401s included)
 * `private, no-store`, a 429 `no-store`, any other `no-cache`.
 */
export const cacheControl: Check = {
  name: "cache-control",
  title: "Answer cacheable against x-caching, or given from a cache",
  verifies:
    "Every answer carries the Cache-Control of x-caching for its kind (personal streams and their 401s private, no-store; 429 no-store; others no-cache), and none comes from a cache's storage (Age, X-Cache HIT).",
  source: "x-caching",
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status)) return null;
    const { spec } = ctx;
    const kind = spec.cachingKind(exchange.operation, exchange.status);
    const sets = spec.cacheControl(kind);
    const have = directives(exchange.headers["cache-control"]);
    const findings: Finding[] = [];
    if (!sets.some((set) => set.every((d) => have.has(d)))) {
      // The API never answers HTML: such a page is a proxy's, with no account's data to leak.
      const why =
        exchange.mediaType === "text/html"
          ? `it is an HTML page (${exchange.headers.server ? `Server: ${exchange.headers.server}, ` : ""}not the API's answer), which a cache may keep and give to others in the API's place`
          : WHY[kind];
      findings.push({
        code: `cache-control/${kind}`,
        title: `${exchange.status} answer of ${exchange.operation.operationId} (${kind}) lacks Cache-Control: ${sets.map((s) => s.join(", ")).join(" or ")}: ${why}`,
        received: exchange.headers["cache-control"] ?? null,
        documented: sets.map((s) => s.join(", ")),
      });
    }
    const fromCache = cacheEvidence(exchange.headers);
    if (fromCache.length > 0) {
      findings.push({
        code: "cache-control/from-cache",
        title: `${exchange.status} answer of ${exchange.operation.operationId} came from a cache's storage (${fromCache.join("; ")}), not from the API: ${WHY[kind]}`,
        received: fromCache,
        documented: `${sets.map((s) => s.join(", ")).join(" or ")}: never reused without asking the API`,
      });
    }
    return findings;
  },
  // Every answer it judges has a kind whose Cache-Control it could lack, and could come from a cache.
  informative: () => true,
};
