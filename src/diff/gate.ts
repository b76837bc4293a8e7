import type { DiffResult } from "./types.ts";

export const FAIL_ON = ["breaking", "warning", "never"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/**
 * Whether the result fails the gate. Within a major, any finding at or above the level fails;
 * across majors the compatibility findings are notes (level info), so only the versioning
 * checks (v2 prefix, 6-month rule) can fail.
 */
export function failsOn(r: DiffResult, failOn: FailOn): boolean {
  if (failOn === "never") return false;
  return r.summary.breaking > 0 || (failOn === "warning" && r.summary.warning > 0);
}
