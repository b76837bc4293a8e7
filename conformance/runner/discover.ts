/**
 * What the suite learns from the target before planning: its vocabulary (words, prices,
 * activity categories from its own data) and its advertised rate limit (meta), so that
 * requests find data to judge and pacing follows the stricter of the spec and the target.
 */
import { type Vocabulary, vocabularyFrom } from "../arbitraries/vocabulary.ts";
import type { Exchange, RequestCase } from "../types.ts";

const get = (operationId: string, pathname: string, query: [string, string][]): RequestCase => ({
  method: "GET",
  operationId,
  pathname,
  query,
  headers: {},
  label: "discovery",
});

export const DISCOVERY: RequestCase[] = [
  get("getMeta", "/api/v1/meta", []),
  get("getFeed", "/api/v1/feed", [["limit", "50"]]),
  get("getRank", "/api/v1/rank", [
    ["act", "shiwutian"],
    ["limit", "300"],
  ]),
  get("listActivities", "/api/v1/shenghuo", [
    ["with_cates", "1"],
    ["pageSize", "100"],
  ]),
];

const arrayAt = (e: Exchange | undefined, key: "data" | "cates"): unknown[] => {
  const v = (e?.body as Record<string, unknown> | undefined)?.[key];
  return e?.status === 200 && Array.isArray(v) ? v : [];
};

export function learn(exchanges: Exchange[]): {
  vocabulary: Vocabulary;
  metaRate?: { limit: number; windowSeconds: number };
} {
  const [meta, feed, rank, shenghuo] = exchanges;
  const vocabulary = vocabularyFrom(
    [...arrayAt(feed, "data"), ...arrayAt(rank, "data")],
    arrayAt(shenghuo, "data"),
    arrayAt(shenghuo, "cates"),
  );
  const rl = (
    meta?.body as { data?: { rate_limit?: { limit?: unknown; window_seconds?: unknown } } } | undefined
  )?.data?.rate_limit;
  const metaRate =
    meta?.status === 200 && typeof rl?.limit === "number" && typeof rl.window_seconds === "number"
      ? { limit: rl.limit, windowSeconds: rl.window_seconds }
      : undefined;
  return { vocabulary, ...(metaRate ? { metaRate } : {}) };
}
