/**
 * The conformance command behind the CLI: picks the target (a base URL, or the bundled
 * reference server in process), runs, prints progress and the report, writes report files.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Account } from "./arbitraries/requests.ts";
import { UnreachableError } from "./http/client.ts";
import { formatConsole } from "./reporters/console.ts";
import { formatJson } from "./reporters/json.ts";
import { formatJunit } from "./reporters/junit.ts";
import type { RunReport } from "./runner/results.ts";
import { type RunOptions, runConformance } from "./runner/run.ts";
import { startBundledServer, type Target } from "./runner/target.ts";

export interface CliRun extends Omit<RunOptions, "baseUrl" | "log" | "replayTarget"> {
  baseUrl?: string;
  reports: { format: "junit" | "json"; path: string }[];
  out?: (line: string) => void;
}

/** Runs and reports; returns the exit code (0 pass, 1 fail, 2 unreachable target). */
export async function conformanceCommand(run: CliRun): Promise<{ code: number; report?: RunReport }> {
  const out = run.out ?? ((line: string) => console.log(line));
  const started = Date.now();
  const log = (line: string) => out(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);
  let target: Target;
  if (run.baseUrl) {
    target = { baseUrl: run.baseUrl, close: async () => {} };
  } else {
    log("starting the bundled reference server (in process, :memory: data)");
    target = await startBundledServer();
  }
  const account: Account | undefined = run.account ?? target.account;
  out(`dealkit conformance: ${target.baseUrl}, seed ${run.seed}`);
  try {
    const report = await runConformance({
      ...run,
      baseUrl: target.baseUrl,
      ...(account ? { account } : {}),
      log,
      replayTarget: run.baseUrl ? `--base-url ${run.baseUrl} ` : "",
    });
    out(formatConsole(report));
    for (const r of run.reports) {
      await mkdir(dirname(r.path), { recursive: true });
      await writeFile(r.path, r.format === "junit" ? formatJunit(report) : formatJson(report));
      out(`wrote ${r.format} report to ${r.path}`);
    }
    return { code: report.passed ? 0 : 1, report };
  } catch (err) {
    if (err instanceof UnreachableError) {
      console.error(`dealkit conformance: target unreachable: ${err.message}`);
      return { code: 2 };
    }
    throw err;
  } finally {
    await target.close();
  }
}
