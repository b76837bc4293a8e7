/**
 * Command-line values shared by `dealkit proxy` and `dealkit judge`, read the way `dealkit
 * conformance` reads them. A wrong value is an OptionError; the CLI turns it into its usage error.
 */
import { FORMATS, type ReportFormat } from "../main.ts";
import { OptionError } from "./option-error.ts";

// In a module of its own: the CLI's thread of `dealkit proxy` catches it without loading this
// one, whose report formats load the whole suite (proxy-args.ts).
export { OptionError };

/** `--report F=PATH`: the report files written at the end, and the NDJSON stream of findings. */
export function reportsOption(given: string[]): {
  files: { format: ReportFormat; path: string }[];
  ndjson?: string;
} {
  const files: { format: ReportFormat; path: string }[] = [];
  let ndjson: string | undefined;
  for (const r of given) {
    const m = /^([a-z]+)=(.+)$/.exec(r);
    if (!m?.[1] || !m[2])
      throw new OptionError(`--report must be FORMAT=PATH (junit, json, markdown, ndjson), got ${r}`);
    if (m[1] === "ndjson") ndjson = m[2];
    else if (m[1] in FORMATS) files.push({ format: m[1] as ReportFormat, path: m[2] });
    else throw new OptionError(`--report format must be junit, json, markdown or ndjson, got ${m[1]}`);
  }
  return { files, ...(ndjson ? { ndjson } : {}) };
}

/** `--rate N/MIN`, as dealkit conformance reads it. */
export function rateOption(value: string): { limit: number; windowSeconds: number } {
  const m = /^([0-9]+)\/MIN$/i.exec(value);
  if (!m || Number(m[1]) < 1) throw new OptionError(`--rate must look like 60/MIN, got ${value}`);
  return { limit: Number(m[1]), windowSeconds: 60 };
}

/** A comma-separated list (--only, --skip); undefined when empty. */
export function listOption(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items?.length ? items : undefined;
}
