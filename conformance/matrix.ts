/**
 * `dealkit conformance --base-url A --base-url B …`: the suite against each target in turn (one
 * after another: their rate limits and the machine are not shared), then one set of report files
 * for all of them, the checks × targets matrix (reporters/matrix-*.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type CliRun, conformanceCommand, type ReportFormat } from "./main.ts";
import { matrixCode } from "./reporters/matrix.ts";
import { MATRIX_FORMATS } from "./reporters/matrix-formats.ts";
import type { RunReport } from "./runner/report.ts";

/** Writes the matrix files (a failure to write one is said, and the others are still written). */
export async function writeMatrixReports(
  files: { format: ReportFormat; path: string }[],
  reports: RunReport[],
  out: (line: string) => void,
  command: string,
): Promise<void> {
  for (const r of files) {
    try {
      await mkdir(dirname(r.path), { recursive: true });
      await writeFile(r.path, MATRIX_FORMATS[r.format](reports));
      out(`wrote ${r.format} matrix of ${reports.length} targets to ${r.path}`);
    } catch (err) {
      console.error(`dealkit ${command}: could not write ${r.path}: ${(err as Error).message}`);
    }
  }
}

/**
 * Runs the suite against every base URL with the same options (seed included), and writes the
 * reports once, for all. A signal stops the target being run and the ones after it; the reports
 * then hold the targets run so far. The exit code is the worst of the runs' (matrixCode).
 */
export async function conformanceMatrix(
  cli: CliRun,
  baseUrls: string[],
): Promise<{ code: number; reports: RunReport[] }> {
  const out = cli.out ?? ((line: string) => console.log(line));
  const reports: RunReport[] = [];
  const codes: number[] = [];
  for (const [i, baseUrl] of baseUrls.entries()) {
    if (cli.signal?.aborted) break;
    out(`target ${i + 1} of ${baseUrls.length}: ${baseUrl}`);
    const { code, report } = await conformanceCommand({ ...cli, baseUrl, reports: [] });
    codes.push(code);
    if (report) reports.push(report);
  }
  if (!cli.planOnly) await writeMatrixReports(cli.reports, reports, out, "conformance");
  return { code: matrixCode(codes), reports };
}
