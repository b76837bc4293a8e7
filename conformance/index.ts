/** dealkit/conformance: the suite as a library, for a test runner or a script of your own. */

export type { JudgeCli, ProxyCli, ProxyRun } from "./passive/main.ts";
export { judgeCommand, proxyCommand } from "./passive/main.ts";
export { formatJson } from "./reporters/json.ts";
export { formatJunit } from "./reporters/junit.ts";
export { formatMarkdown } from "./reporters/markdown.ts";
export type { CheckResult, RunReport } from "./runner/report.ts";
export type { RunOptions } from "./runner/run.ts";
export { DEFAULT_MAX_TIME_SECONDS, runConformance } from "./runner/run.ts";
