import { get } from "../src/rules/pointer.ts";
import { type ShapeContext, shapingRules } from "./enforce.ts";
import { shapeAnswer } from "./shape.ts";

/**
 * The name of the documented 200 example that survives this request's rules best (most items
 * left after shaping), for Prism's `Prefer: example=`. Prism alone always serves the first
 * example, which is the wrong structure for e.g. `feed?type=zdm`. Undefined when the
 * operation has at most one example.
 */
export function pickExample(ctx: ShapeContext): string | undefined {
  const response = ctx.spec.response(ctx.operation.operationId, 200);
  const media = response && Object.values(response.content)[0];
  const examples = Object.entries(media?.examples ?? {});
  if (examples.length < 2) return undefined;
  const at = shapingRules(ctx).find((r) => r.then.each)?.then.each?.at ?? "/data";
  let best: { name: string; score: number } | undefined;
  for (const [name, example] of examples) {
    const items = get(shapeAnswer(ctx, example.value), at);
    const score = Array.isArray(items) ? items.length : 0;
    if (!best || score > best.score) best = { name, score };
  }
  return best?.name;
}
