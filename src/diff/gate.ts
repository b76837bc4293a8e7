import type { DiffResult } from "./types.ts";

export const FAIL_ON = ["breaking", "warning", "never"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/**
 * Whether the result fails the gate. Within a major, any finding at or above the level fails;
 * across majors the compatibility findings are notes (level info), so only the versioning
 * checks (v2 prefix, 6-month rule) can fail. A finding an --accept entry covers does not count;
 * an --accept entry past its date fails whatever it matched, so the list cannot rot. `never`
 * reports only, and exits 0 whatever it finds.
 */
export function failsOn(r: DiffResult, failOn: FailOn): boolean {
  if (failOn === "never") return false;
  if ((r.acceptance?.expired.length ?? 0) > 0) return true;
  return r.findings.some(
    (f) => !f.accepted && (f.level === "breaking" || (failOn === "warning" && f.level === "warning")),
  );
}
