import type { Spec } from "../src/spec/spec.ts";
import { priceScope } from "./fillers.ts";

/**
 * The capability manifest (getMeta) computed from the spec's x- extensions, so it mirrors them
 * exactly (rule meta-mirrors-spec); the spec's example is abridged. `streams` stays as the
 * example has it: the spec names the priced streams but not their display names.
 */
export function buildManifest(spec: Spec, example: Record<string, unknown>): Record<string, unknown> {
  const windows = Object.entries(spec.rankWindows.windows).map(([act, w]) => ({
    act,
    label: w.label,
    window: w.kind === "rolling" ? `last ${w.hours} h` : `calendar day -${w.days_ago}`,
  }));
  return {
    ...example,
    api_version: spec.version,
    rank_types: windows,
    categories: spec.categories.items.map(({ id, alias, name, priced }) => ({ id, alias, name, priced })),
    price_filter: priceScope(spec),
    rate_limit: {
      limit: spec.rateLimit.limit,
      window_seconds: spec.rateLimit.window_seconds,
      scope: spec.rateLimit.scope,
    },
    limits: parameterLimits(spec),
    not_provided: spec.notProvided.map(({ id, description }) => ({ id, description })),
  };
}

/** `{ operationId: { param: { minimum, maximum, default } } }` for every bounded parameter. */
function parameterLimits(spec: Spec): Record<string, Record<string, Record<string, unknown>>> {
  const limits: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const op of spec.operations) {
    for (const p of op.parameters) {
      const { minimum, maximum } = p.schema;
      if (minimum === undefined && maximum === undefined) continue;
      const forOp = limits[op.operationId] ?? {};
      forOp[p.name] = { minimum, maximum, default: p.schema.default };
      limits[op.operationId] = forOp;
    }
  }
  return limits;
}
