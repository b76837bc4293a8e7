import { readFile } from "node:fs/promises";
import { FORMATS, type ReportFormat, writeReports } from "../../conformance/main.ts";
import { writeMatrixReports } from "../../conformance/matrix.ts";
import { formatMarkdown } from "../../conformance/reporters/markdown.ts";
import { matrixCode } from "../../conformance/reporters/matrix.ts";
import { formatMatrixMarkdown } from "../../conformance/reporters/matrix-markdown.ts";
import { verdictOfReport } from "../../conformance/reporters/verdict.ts";
import { type RunReport, verdictCode } from "../../conformance/runner/report.ts";
import { ParseError, parseJsonText } from "../../src/errors/parse-text.ts";
import { parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit report FILE.json ... [--report FORMAT=PATH ...]

Reports again from earlier JSON reports (dealkit conformance, proxy or judge --report json=FILE,
or the json of several --base-url): one target gives its own report, several the checks × targets
matrix (which target passes what, with evidence, and each target's findings). Without --report the
markdown goes to standard output. The exit code is the worst run's: 0 passed, 1 failed, 2 could not
judge its target (or a file is not a report), 3 incomplete (something selected was not judged).
  --report F=PATH     html (one self-contained page), markdown, json, junit; repeatable`;

/** Why a value is not a run report the reporters can read (loosely: the fields they need), or undefined. */
function reportProblem(v: unknown): string | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "not a JSON object";
  const r = v as Partial<RunReport>;
  if (typeof r.baseUrl !== "string") return "no baseUrl";
  if (!Array.isArray(r.checks)) return "no checks list";
  const bad = r.checks.findIndex((c) => typeof c?.name !== "string" || typeof c.status !== "string");
  return bad >= 0 ? `checks[${bad}] has no name and status` : undefined;
}

/** The run reports of one file: a run's report, or `targets` of a matrix's json. */
export async function readReports(path: string): Promise<RunReport[]> {
  let parsed: unknown;
  try {
    parsed = parseJsonText(await readFile(path, "utf8"), path);
  } catch (err) {
    // A syntax error names the file, line and column itself.
    if (err instanceof ParseError) throw new UsageError(err.message);
    throw new UsageError(`${path}: not a readable JSON report (${(err as Error).message})`);
  }
  const targets = (parsed as { targets?: unknown } | null)?.targets;
  const reports: unknown[] = Array.isArray(targets) ? targets : [parsed];
  if (reports.length === 0) throw new UsageError(`${path}: not a dealkit JSON report (targets is empty)`);
  reports.forEach((r, i) => {
    const problem = reportProblem(r);
    const which = Array.isArray(targets) ? ` (targets[${i}])` : "";
    if (problem) throw new UsageError(`${path}: not a dealkit JSON report${which}: ${problem}`);
  });
  // Reports written before these fields existed: the reporters expect them.
  return (reports as RunReport[]).map((r) => ({ ...r, causes: r.causes ?? [], notes: r.notes ?? [] }));
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { report: { type: "string", multiple: true } });
  if (positionals.length === 0) throw new UsageError("give at least one JSON report");
  const files = (values.report ?? []).map((r) => {
    const m = /^([a-z]+)=(.+)$/.exec(r);
    if (!m?.[1] || !m[2] || !(m[1] in FORMATS))
      throw new UsageError(`--report must be FORMAT=PATH (${Object.keys(FORMATS).join(", ")}), got ${r}`);
    return { format: m[1] as ReportFormat, path: m[2] };
  });
  const reports = (await Promise.all(positionals.map(readReports))).flat();
  const out = (line: string) => console.log(line);
  const [only] = reports;
  if (files.length === 0)
    process.stdout.write(reports.length === 1 && only ? formatMarkdown(only) : formatMatrixMarkdown(reports));
  else if (reports.length === 1 && only) await writeReports(files, only, out, "report");
  else await writeMatrixReports(files, reports, out, "report");
  return matrixCode(reports.map((r) => verdictCode(verdictOfReport(r))));
}
