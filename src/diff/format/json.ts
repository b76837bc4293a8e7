import type { AcceptEntry } from "../../accept/list.ts";
import type { DiffResult } from "../types.ts";
import { acceptedCount } from "./acceptance.ts";

/**
 * The result as data, keys in a fixed order so consumers can diff outputs. With --accept, an
 * `acceptance` object follows the summary and accepted findings carry `accepted`.
 */
export function formatJson(r: DiffResult): string {
  return JSON.stringify(
    {
      mode: r.mode,
      base: r.base,
      head: r.head,
      summary: r.summary,
      ...(r.acceptance
        ? {
            acceptance: {
              accepted: acceptedCount(r),
              expired: r.acceptance.expired.map(asWritten),
              unused: r.acceptance.unused.map(asWritten),
            },
          }
        : {}),
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
        ...(f.accepted ? { accepted: f.accepted } : {}),
      })),
    },
    null,
    2,
  );
}

/** An entry as the file wrote it, so a script can find it there. */
function asWritten(e: AcceptEntry): Record<string, string> {
  return { ...e.match, reason: e.reason, expires: e.expires };
}
