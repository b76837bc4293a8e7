/** Command-line flags of `npm run bench`. */

export const SCENARIOS = [
  "throughput",
  "search",
  "limiter",
  "conformance",
  "field",
  "startup",
  "scaleout",
  "redis-stall",
  "proxy",
  "install",
  "npm-ci",
  "soak",
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchArgs {
  /** ~2-minute smoke: shorter and fewer runs, small data only. */
  quick: boolean;
  only: ScenarioName[];
  /**
   * Search at 1M alerts (issue 25: a full run always measures it). Its database is generated
   * once per generator version into .data/bench/ and reused; --no-1m skips it.
   */
  million: "on" | "off";
  /** Conformance also without --skip-slow (waits out Retry-After windows: ~1.5 min more, over the 10-minute budget). */
  slowConformance: boolean;
  /** `npm ci` in a temp copy of the repository (with better-sqlite3 12 it compiled from source: ≈3 min). */
  npmCi: boolean;
  /** soak: wall seconds of the proxy's soak (default: an hour at 200 req/s, compressed: 30 min). */
  soakSeconds?: number;
  /** redis-stall: seconds Redis stays stopped (default 10, 5 with --quick; the acceptance uses 60). */
  stallSeconds?: number;
  help: boolean;
}

export const USAGE = `usage: npm run bench [-- [--quick] [--only ${SCENARIOS.join(",")}] [--no-1m] [--slow-conformance] [--npm-ci] [--stall-seconds N] [--soak-seconds N]]

Starts what it needs on loopback, runs bounded loads, writes bench/results.md and bench/results.json.
  --quick                 ~2-minute smoke (single short runs, search at 10k only)
  --only LIST             run only these scenarios (npm-ci and soak run only when named, or with --npm-ci)
  --no-1m                 skip search at 1M alerts (a full run searches 1M, generating its database once)
  --slow-conformance      also time the conformance run without --skip-slow (waits out Retry-After)
  --npm-ci                time \`npm ci\` in a temp copy of the repository (adds ~3 min)
  --stall-seconds N       redis-stall: keep Redis stopped N seconds (default 10; the acceptance uses 60)
  --soak-seconds N        run the proxy's soak for N seconds (default 1,800: an hour at 200 req/s, compressed)`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    quick: false,
    only: [],
    million: "on",
    slowConformance: false,
    npmCi: false,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--quick") args.quick = true;
    // Kept for old command lines: 1M is the default now.
    else if (a === "--1m") args.million = "on";
    else if (a === "--no-1m") args.million = "off";
    else if (a === "--slow-conformance") args.slowConformance = true;
    else if (a === "--npm-ci") args.npmCi = true;
    else if (a === "--help" || a === "-h") args.help = true;
    else if (a === "--soak-seconds" || a.startsWith("--soak-seconds=")) {
      const value = a === "--soak-seconds" ? argv[++i] : a.slice("--soak-seconds=".length);
      const n = Number(value);
      if (!Number.isInteger(n) || n < 30 || n > 7200)
        throw new Error(`--soak-seconds needs a whole number of seconds from 30 to 7200, got ${value}`);
      args.soakSeconds = n;
      if (!args.only.includes("soak")) args.only.push("soak");
    } else if (a === "--stall-seconds" || a.startsWith("--stall-seconds=")) {
      const value = a === "--stall-seconds" ? argv[++i] : a.slice("--stall-seconds=".length);
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 600)
        throw new Error(`--stall-seconds needs a whole number of seconds from 1 to 600, got ${value}`);
      args.stallSeconds = n;
    } else if (a === "--only" || a.startsWith("--only=")) {
      const value = a === "--only" ? argv[++i] : a.slice("--only=".length);
      if (!value) throw new Error("--only needs a comma-separated list of scenarios");
      for (const name of value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        if (!(SCENARIOS as readonly string[]).includes(name))
          throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(", ")}`);
        args.only.push(name as ScenarioName);
      }
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (args.quick) args.million = "off";
  return args;
}

/**
 * The scenarios this run executes, in order. npm-ci is opt-in: it alone takes ~3 of the 10
 * minutes; so is the proxy's soak (30 minutes for an hour's exchanges): `--only soak`, whose
 * latest full-length result a full run carries (soak-carry.ts).
 */
export function selectedScenarios(args: BenchArgs): ScenarioName[] {
  if (args.only.length > 0) return SCENARIOS.filter((s) => args.only.includes(s));
  return SCENARIOS.filter((s) => (s !== "npm-ci" || args.npmCi) && s !== "soak");
}
