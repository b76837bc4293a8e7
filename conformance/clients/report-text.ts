/** The words every format of the client report shares: a finding's line, an evidence line, an outcome. */
import type { ClientFinding, EvidenceRequest, VariationOutcome } from "./types.ts";

export function evidenceLine(e: EvidenceRequest): string {
  return `${e.at} ${e.method} ${e.target} → ${e.status}${e.note ? ` (${e.note})` : ""}`;
}

export function findingLine(f: ClientFinding): string {
  return `${f.rule}: ${f.message}`;
}

export function outcomeLine(v: VariationOutcome): string {
  const what =
    v.next === "stopped"
      ? "stopped (no request after it)"
      : v.next === "repeated-at-once"
        ? `repeated at once (${v.delaySeconds?.toFixed(1)} s later)`
        : v.next === "storm"
          ? `went on into a 429 storm (${v.delaySeconds?.toFixed(1)} s later)`
          : `next request after ${v.delaySeconds?.toFixed(1)} s`;
  const next = v.nextRequest
    ? `: ${v.nextRequest.method} ${v.nextRequest.target} → ${v.nextRequest.status}`
    : "";
  return `${v.request.method} ${v.request.target} carried ${v.variations.join(", ")}; ${what}${next}`;
}
