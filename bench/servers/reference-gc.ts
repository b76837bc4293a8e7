/**
 * Child-process entry for the search scenario: the reference server exactly as reference.ts
 * starts it, which also prints each of its GC pauses on stdout (`GC {json}`: start as epoch ms,
 * duration ms, V8's kind). The search scenario's client times requests from another process; these
 * lines tell which samples a pause of the server fell in, and how long it was (a parallel scavenge
 * whose helper threads wait for a CPU is a long pause of the main thread). One small write per GC,
 * about one a second under the scenario's load: nothing the timed requests would feel.
 */
import { type PerformanceEntry, PerformanceObserver, performance } from "node:perf_hooks";

/** perf_hooks' gc entry kinds (NODE_PERFORMANCE_GC_*). */
const KINDS: Record<number, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb" };

new PerformanceObserver((list) => {
  for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[])
    process.stdout.write(
      `GC ${JSON.stringify({ at: performance.timeOrigin + e.startTime, ms: e.duration, kind: KINDS[e.detail?.kind ?? 0] ?? "other" })}\n`,
    );
}).observe({ entryTypes: ["gc"] });

await import("./reference.ts");
