import type { CheckResult, RunReport } from "../runner/results.ts";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function table(checks: CheckResult[]): string[] {
  const width = Math.max(5, ...checks.map((c) => c.name.length));
  const lines = [`${"check".padEnd(width)}  status   cases  requests  note`];
  for (const c of checks) {
    const status = c.status === "fail" ? `FAIL(${c.violations.length})` : c.status;
    lines.push(
      `${c.name.padEnd(width)}  ${status.padEnd(7)}  ${String(c.cases).padStart(5)}  ${String(c.requests || "-").padStart(8)}  ${c.note ?? ""}`,
    );
  }
  return lines;
}

/** The end-of-run text: the check table, then every violation with its reproduction. */
export function formatConsole(report: RunReport): string {
  const failed = report.checks.filter((c) => c.status === "fail");
  const skipped = report.checks.filter((c) => c.status === "skipped");
  const lines = ["", ...table(report.checks), ""];
  for (const c of failed) {
    for (const v of c.violations) {
      lines.push(`✗ ${v.check} [${v.severity}] ${v.operation}: ${v.title}`);
      lines.push(`    Received:   ${clip(show(v.received), 300)}`);
      lines.push(`    Documented: ${clip(show(v.documented), 300)}`);
      lines.push(`    Request:    ${v.request}`);
      lines.push(`    Replay:     ${v.replay}`);
      lines.push("");
    }
  }
  for (const n of report.notes) lines.push(`note: ${n}`);
  // A plain mock passes the schema-level checks and fails the rule-level ones: say which kind failed.
  const count = (rules: boolean) => {
    const group = report.checks.filter((c) => c.name.startsWith("rule:") === rules);
    const n = (s: string) => group.filter((c) => c.status === s).length;
    return `${n("pass")} passed, ${n("fail")} failed, ${n("skipped")} skipped`;
  };
  lines.push(`schema/protocol-level checks: ${count(false)}`);
  lines.push(`rule-level checks (x-conformance): ${count(true)}`);
  lines.push(
    `${report.checks.length - failed.length - skipped.length} passed, ${failed.length} failed, ${skipped.length} skipped; ` +
      `${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s; seed ${report.seed}`,
  );
  return lines.join("\n");
}
