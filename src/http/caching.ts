import type { Spec } from "../spec/spec.ts";
import type { Operation } from "../spec/types.ts";

/**
 * The Cache-Control an answer carries (x-caching): the first directive set listed for its kind.
 * `operation` is the one the path routes to (undefined for an unknown path: a public answer).
 */
export function cacheControl(spec: Spec, operation: Operation | undefined, status: number): string {
  return (spec.cacheControl(spec.cachingKind(operation, status))[0] ?? []).join(", ");
}
