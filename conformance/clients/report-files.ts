/** `--clients-report FORMAT=PATH` (repeatable) read, and the files written. */
import { writeFile } from "node:fs/promises";
import { OptionError } from "../passive/option-error.ts";
import { CLIENT_REPORT_FORMATS, type ClientReportFormat } from "./report-formats.ts";
import type { ClientsReport } from "./types.ts";

export interface ClientReportFile {
  format: ClientReportFormat;
  path: string;
}

const NAMES = Object.keys(CLIENT_REPORT_FORMATS).join(", ");

export function clientsReportOption(given: string[]): ClientReportFile[] {
  return given.map((r) => {
    const m = /^([a-z]+)=(.+)$/.exec(r);
    if (!m?.[1] || !m[2]) throw new OptionError(`--clients-report must be FORMAT=PATH (${NAMES}), got ${r}`);
    if (!(m[1] in CLIENT_REPORT_FORMATS))
      throw new OptionError(`--clients-report format must be one of ${NAMES}, got ${m[1]}`);
    return { format: m[1] as ClientReportFormat, path: m[2] };
  });
}

export async function writeClientReports(files: ClientReportFile[], report: ClientsReport): Promise<void> {
  await Promise.all(files.map((f) => writeFile(f.path, CLIENT_REPORT_FORMATS[f.format](report))));
}
