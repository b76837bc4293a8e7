/** The words every format of the client report shares: a finding's line, an evidence line, an outcome. */
import type {
  ClientFinding,
  ClientReport,
  ClientsReport,
  EvidenceRequest,
  VariationOutcome,
} from "./types.ts";

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

/** Clean clients the console lists by name; the rest are counted (a proxy may see thousands). */
const CONSOLE_CLEAN = 20;

/**
 * The report as the console shows it: the headline, each client with its findings and their first
 * request, and how it answered its varied answers as counts (the report files list each one).
 */
export function consoleLines(report: ClientsReport): string[] {
  const lines = [`clients: ${report.headline}`];
  let clean = 0;
  for (const c of report.clients) {
    if (c.verdict === "passed" && ++clean > CONSOLE_CLEAN) continue;
    const agents = c.userAgents.length ? ` (${c.userAgents.join("; ")})` : "";
    lines.push(`  ${c.client}${agents}: ${c.verdict}, ${c.requests} requests${variationCounts(c)}`);
    for (const f of c.findings) {
      lines.push(`    ${findingLine(f)}`);
      const first = f.evidence[0];
      if (first) lines.push(`      ${evidenceLine(first)}`);
    }
  }
  if (clean > CONSOLE_CLEAN) lines.push(`  and ${clean - CONSOLE_CLEAN} more clients passed`);
  return lines;
}

function variationCounts(c: ClientReport): string {
  if (c.variations.length === 0) return "";
  const counts = new Map<string, number>();
  for (const v of c.variations) counts.set(v.next, (counts.get(v.next) ?? 0) + 1);
  const parts = [...counts].map(([next, n]) => `${next} ${n}`);
  return `, ${c.variations.length} varied answers (${parts.join(", ")})`;
}
