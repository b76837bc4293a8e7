/** The words every format of the client report shares: a finding's line, an evidence line, an outcome. */
import type { ClientFinding, ClientsReport, EvidenceRequest, VariationOutcome } from "./types.ts";

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

/** The report as the console shows it: the headline, then each client's findings with their first request. */
export function consoleLines(report: ClientsReport): string[] {
  const lines = [`clients: ${report.headline}`];
  for (const c of report.clients) {
    lines.push(
      `  ${c.client}${c.userAgents.length ? ` (${c.userAgents.join("; ")})` : ""}: ${c.verdict}, ${c.requests} requests`,
    );
    for (const f of c.findings) {
      lines.push(`    ${findingLine(f)}`);
      const first = f.evidence[0];
      if (first) lines.push(`      ${evidenceLine(first)}`);
    }
    for (const v of c.variations) lines.push(`    variation: ${outcomeLine(v)}`);
  }
  return lines;
}
