import type { Spec } from "../../src/spec/spec.ts";
import type { RankWindow } from "../../src/spec/types.ts";
import type { Handler, RouteContext } from "./context.ts";
import { priceScope, ruleCountMax, streamName } from "./spec-values.ts";

function describeWindow(w: RankWindow): string {
  return w.kind === "rolling" ? `last ${w.hours} h` : `calendar day ${w.days_ago === 0 ? 0 : -w.days_ago}`;
}

/** Bounds and defaults of every parameter that has one, by operation and parameter name. */
function limits(spec: Spec): Record<string, Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const op of spec.operations) {
    for (const p of op.parameters) {
      const s = p.schema;
      const bound = Object.fromEntries(
        (["minimum", "maximum", "minLength", "maxLength", "default"] as const)
          .filter((k) => s[k] !== undefined)
          .map((k) => [k, s[k]]),
      );
      if (Object.keys(bound).length === 0) continue;
      out[op.operationId] ??= {};
      (out[op.operationId] as Record<string, unknown>)[p.name] = bound;
    }
  }
  return out;
}

/**
 * The manifest's `data`, serialized once per server (its spec and the limit in force); only
 * `meta.generated_at` changes, once a second, so the encoded answer is kept for that second.
 */
const manifests = new WeakMap<RouteContext, { data: string; second: number; body: Buffer }>();

/** GET /api/v1/meta: the capability manifest, built from the spec's x- extensions. */
export const getMeta: Handler = (ctx) => {
  const second = ctx.nowSeconds();
  let cached = manifests.get(ctx);
  if (cached?.second !== second) {
    const data = cached?.data ?? JSON.stringify(manifest(ctx));
    const body = Buffer.from(`{"data":${data},"meta":{"generated_at":${second}}}`);
    cached = { data, second, body };
    manifests.set(ctx, cached);
  }
  return { status: 200, body: cached.body };
};

function manifest({ spec, rateLimit }: RouteContext) {
  const feed = spec.operation("getFeed");
  const data = {
    api_version: spec.version,
    rank_types: Object.entries(spec.rankWindows.windows).map(([act, w]) => ({
      act,
      label: w.label,
      window: describeWindow(w),
    })),
    categories: spec.categories.items.map(({ id, alias, name, priced }) => ({ id, alias, name, priced })),
    streams: spec.categories.priced_streams.map((type) => ({
      type,
      name: streamName(type),
      priced: true,
      retention: ruleCountMax(feed, `feed-${type}-retention`),
    })),
    price_filter: priceScope(spec),
    // The limit in force, which the RateLimit-* headers state too: one truth for a client.
    rate_limit: {
      limit: rateLimit?.limit ?? spec.rateLimit.limit,
      window_seconds: rateLimit?.windowSeconds ?? spec.rateLimit.window_seconds,
      scope: spec.rateLimit.scope,
    },
    limits: limits(spec),
    not_provided: spec.notProvided.map(({ id, description }) => ({ id, description })),
  };
  return data;
}
