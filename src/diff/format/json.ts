import type { DiffResult } from "../types.ts";

/** The result as data, keys in a fixed order so consumers can diff outputs. */
export function formatJson(r: DiffResult): string {
  return JSON.stringify(
    {
      mode: r.mode,
      base: r.base,
      head: r.head,
      summary: r.summary,
      findings: r.findings.map((f) => ({
        rule: f.rule,
        level: f.level,
        location: {
          ...(f.location.operation ? { operation: f.location.operation } : {}),
          ...(f.location.successor ? { successor: f.location.successor } : {}),
          ...(f.location.parameter ? { parameter: f.location.parameter } : {}),
          pointer: f.location.pointer,
          in: f.location.in,
        },
        message: f.message,
        ...(f.migration ? { migration: f.migration } : {}),
      })),
    },
    null,
    2,
  );
}
