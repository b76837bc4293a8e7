import type { Spec } from "../spec/spec.ts";
import type { RatePolicy } from "./pacer.ts";

/** The pacing policy the spec advertises (x-rate-limit), for `createDealClient({ pacing })`. */
export function ratePolicyOf(spec: Pick<Spec, "rateLimit">): RatePolicy {
  return { limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds };
}
