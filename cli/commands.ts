/**
 * Every dealkit command: its name, the line `dealkit --help` shows, and how to load it. The list is
 * written out, not found by reading a folder: a file that lands beside the commands (a test, a
 * helper, a declaration) cannot become one, and the compiled package lists exactly what the
 * checkout does. Each module is imported only when its command runs, so `--help` loads none of
 * them (the suite, the server and the mock stay unloaded).
 */
export interface CommandModule {
  usage: string;
  run(args: string[]): Promise<number>;
}

export interface CommandEntry {
  summary: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  conformance: {
    summary: "check an implementation against the spec (property-based; the bundled server by default)",
    load: () => import("./commands/conformance.ts"),
  },
  diff: {
    summary: "compare two versions of the spec: breaking changes, or v1 → v2 migration notes",
    load: () => import("./commands/diff.ts"),
  },
  docs: {
    summary: "build the API reference page (self-contained HTML, Redocly)",
    load: () => import("./commands/docs.ts"),
  },
  import: {
    summary: "load NDJSON or the real site's JSON files into the reference server's database",
    load: () => import("./commands/import.ts"),
  },
  judge: {
    summary: "judge recorded traffic (a HAR file, or the NDJSON of exchanges) against the spec",
    load: () => import("./commands/judge.ts"),
  },
  mock: {
    summary: "a mock for client developers: Prism behind the rule layer, answering from generated fixtures",
    load: () => import("./commands/mock.ts"),
  },
  proxy: {
    summary: "judge real traffic passing through a forwarding proxy (no request of its own)",
    load: () => import("./commands/proxy.ts"),
  },
  release: {
    summary: "freeze the current spec as openapi/releases/<info.version>.yaml",
    load: () => import("./commands/release.ts"),
  },
  report: {
    summary: "report again from JSON reports: one run's, or the checks × targets matrix of several",
    load: () => import("./commands/report.ts"),
  },
  serve: {
    summary: "run the reference server (Fastify + embedded SQLite)",
    load: () => import("./commands/serve.ts"),
  },
  watch: {
    summary: "watch a deployment with a small request budget per interval; the ledger judges it across runs",
    load: () => import("./commands/watch.ts"),
  },
};

/** The entry of a command name, or undefined (also for names like "toString" an object inherits). */
export function commandEntry(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
