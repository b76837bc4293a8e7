/**
 * The search scenario's results (bench/scenarios/search.ts measures them, search-report.ts writes
 * them out): their shape, and the targets they are judged against.
 */
import type { ProcessCpu, Waits } from "../cpu-waits.ts";
import type { BenchDatabase } from "../data.ts";
import type { TotalsCheck } from "../search-totals.ts";

export const TARGET_SIZE = 200_000;
export const MILLION = 1_000_000;
/** Issue 25: first-seen p99 of every query kind, per size. */
export const TARGET_P99_MS: Record<number, number> = { [TARGET_SIZE]: 2, [MILLION]: 5 };
/** Issue 25: the 1M database's file and its generation. */
export const TARGET_MILLION_MB = 500;
export const TARGET_MILLION_GENERATION_S = 30;
/** First-seen queries per kind whose totals are checked against a brute-force count (200k and up). */
export const CHECKED_PER_KIND = 10;

export interface Latency {
  p50: number;
  p99: number;
  samples: number;
}

/** Where the first-seen samples' time went besides the work (bench/cpu-waits.ts); Linux only. */
export interface FirstSeenWaits {
  /** p99 of each sample less the time the server's and the client's threads waited for a CPU. */
  p99LessCpuWaits: number;
  /** Samples in which the two threads waited 1 ms or more for a CPU. */
  waited1ms: number;
  /** p99 of the server main thread's time on a CPU per request. */
  serverCpuP99: number;
  /** Samples overlapping a GC pause of the client (search-client.ts, its own process). */
  clientGc: number;
  /** Samples during which the server's V8 worker threads (GC helpers, background compilation) were on a CPU. */
  v8WorkersRan: number;
  /** Samples during which they waited 1 ms or more for a CPU. */
  v8WorkersWaited1ms: number;
  /** The samples split by whether the server's V8 workers ran in them: how many, p50 and p99 of each, ms. */
  byV8Workers: { ran: SampleSpread; idle: SampleSpread };
  /** The machine over every sample of the kind (/proc/stat); undefined where unreadable. */
  machine?: MachineSums;
  /** The processes besides the server and the client that used the most CPU while the kind ran. */
  topProcesses: ProcessCpu[];
  /** Samples overlapping a GC pause of the server (bench/servers/reference-gc.ts), and those pauses' time inside samples, ms. */
  serverGc: number;
  serverGcPauseMs?: number;
  /** The samples split by whether a GC pause of the server fell in them. */
  byServerGc: { ran: SampleSpread; idle: SampleSpread };
  /** The 3 slowest samples and where their time went (serverGcMs: the server's GC pause inside it; its kinds). */
  slowest: SlowSample[];
}

/** A slow sample: its ms, the request (so it can be sent again), and where its time went. */
export type SlowSample = Waits & {
  ms: number;
  path: string;
  clientGc: boolean;
  serverGcMs: number;
  serverGcKind: string;
};

/** A GC pause of the server: start (epoch ms), duration, V8's kind (minor, major, incremental, weakcb). */
export interface ServerGc {
  at: number;
  ms: number;
  kind: string;
}

/** CPU time of the whole machine summed over the samples' spans, ms (/proc/stat ticks: exact only in sum). */
export interface MachineSums {
  /** Every CPU's time over the spans (busy, steal and idle summed over the CPUs). */
  cpuMs: number;
  /** The spans' wall time as the machine counted it (cpuMs / CPUs). */
  wallMs: number;
  /** The samples themselves (timed part). */
  samplesMs: number;
  /** Every CPU's busy time, and of it the server's threads, the client's main thread, and the rest. */
  busyMs: number;
  serverMs: number;
  clientMs: number;
  othersMs: number;
  /** Time the hypervisor gave these CPUs to another guest. */
  stealMs: number;
  /** /proc/pressure/cpu "some": wall time in which some task had no CPU. */
  pressureMs?: number;
}

/**
 * A server GC pause counts as inside a sample when at least this much of it is: the two processes'
 * epoch clocks (performance.timeOrigin) agree to a few tens of µs, not exactly.
 */
export const GC_OVERLAP_MS = 0.1;

/** A V8 worker's CPU time in a sample at or above this is counted as having run (a GC or compile job). */
export const V8_WORKERS_RAN_MS = 0.05;

export interface KindResult {
  id: string;
  repeated: Latency;
  firstSeen: Latency;
  firstSeenWaits?: FirstSeenWaits;
  non2xx: number;
  meanTotal: number;
}

export interface SizeResult {
  db: Omit<BenchDatabase, "path">;
  kinds: KindResult[];
  /** Served totals against a brute-force count (sizes of 200k and up). */
  totals?: TotalsCheck;
  /** The server's resident memory after every search of this size (MB), when readable. */
  serverRssMB?: number;
  /** Of it, pages of the database file mapped by SQLite (mmap_size): the kernel's page cache, shared and reclaimable. */
  serverRssFileMB?: number;
  /** The server's start to ready, ms: opening the file, reading it once and every token set (bench/servers/reference.ts). */
  serverStartMs?: number;
  /** The machine's 1-minute load average when this size's searches ended (2 cores: above 2, processes wait for a CPU). */
  loadAverage?: number;
  /** The machine floor measured beside this size's kinds (200k and up, where /proc is readable): search-floor.ts. */
  floor?: MachineFloor;
}

/**
 * A bare node:http server (bench/servers/spin-floor.ts) burning the reference server's median
 * first-seen CPU per answer and answering one of its bodies, timed like the kinds: what the
 * machine's own stalls make of that work. Latencies in ms.
 */
export interface MachineFloor {
  /** CPU burnt per answer: the median of the server main thread's CPU per first-seen sample, every kind of the size, µs. */
  cpuMicros: number;
  /** Of it, what a bare answer costs the floor itself (its main thread's median with no spin, one kind's count of samples), µs. */
  ownMicros: number;
  /** The rest, burnt by the spin per answer, µs. */
  spinMicros: number;
  /** The answer's body, bytes (the server's answer to the first kind's first first-seen query). */
  bodyBytes: number;
  /** One sample per first-seen query of every kind, in the kinds' order. */
  samples: number;
  p50: number;
  p99: number;
  /** The floor's main thread's CPU per sample, median, ms: what it did as measured from outside (≈ cpuMicros). */
  cpuP50: number;
  /** The p99 of each kind-sized chunk of the samples, in order (as many chunks as kinds). */
  chunkP99s: number[];
  /** The size's p99 target, ms, and the chunks and samples over it. */
  targetMs: number;
  chunksOverTarget: number;
  samplesOverTarget: number;
  /** Samples in which the floor's and the client's threads waited 1 ms or more for a CPU. */
  waited1ms: number;
}

/** How many samples, p50 and p99 of a set of samples, ms. */
export interface SampleSpread {
  samples: number;
  p50: number;
  p99: number;
}
