/**
 * The search scenario's machine floor: how much of a size's first-seen p99 this shared machine
 * makes by itself. A bare node:http server (bench/servers/spin-floor.ts) burns the reference
 * server's median first-seen CPU per answer and answers one of its bodies, through the same client
 * and the same number of requests as every kind together. Its p99 is what CPU stalls alone do to
 * that much work, in the same run as the verdict; the verdict itself stays on the server's p99.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, startChild, urlOf } from "../procs.ts";
import type { SearchClient } from "../search-client-process.ts";
import { median, quantile } from "../stats.ts";
import type { MachineFloor } from "./search-results.ts";

export interface FloorInput {
  /** The size's reference server, still running. */
  url: string;
  /** A path it has answered already (cached, so asking again is cheap): the floor answers its body. */
  bodyPath: string;
  /** Each kind's first-seen paths, in the kinds' order: the floor ignores them, their count and chunks matter. */
  paths: string[][];
  /** The server main thread's CPU per first-seen sample, every kind, ms (empty where /proc is unreadable). */
  serverCpuMs: number[];
  targetMs: number;
  /** The floor's warm-up (its JIT), as the reference server's repeated queries are warmed up. */
  warmupMs: number;
  tmp: string;
}

export async function measureFloor(
  client: SearchClient,
  input: FloorInput,
): Promise<MachineFloor | undefined> {
  // Without the server's CPU per sample there is no work to burn.
  if (input.serverCpuMs.length === 0) return undefined;
  const answer = await fetch(`${input.url}${input.bodyPath}`);
  const body = Buffer.from(await answer.arrayBuffer());
  const bodyFile = join(input.tmp, "search-floor-body");
  writeFileSync(bodyFile, body);
  const contentType = answer.headers.get("content-type") ?? "application/json";
  /** Starts the floor burning `spinMicros`, warms it up, times each path once, stops it. */
  const run = async (spinMicros: number, paths: string[]) => {
    const floor = await startChild(join(REPO, "bench/servers/spin-floor.ts"), {
      bodyFile,
      contentType,
      cpuMicros: spinMicros,
    });
    try {
      const url = urlOf(floor);
      await client.repeat({ url, paths: [input.bodyPath], durationMs: input.warmupMs });
      return await client.once({ url, paths, serverPid: floor.process.pid });
    } finally {
      await floor.stop();
    }
  };
  const cpuMicros = Math.round(median(input.serverCpuMs) * 1000);
  // A bare answer one at a time costs node:http itself ~0.2 ms of CPU (parsing, writing, the
  // socket), which the server's figure already holds: measured first with no spin, the floor burns
  // only the rest, so that its CPU per answer is the server's and not that plus node:http's.
  const bare = await run(0, input.paths[0] ?? []);
  const ownMicros = Math.round(median(bare.waits.map((w) => w.serverCpuMs)) * 1000);
  const spinMicros = Math.max(0, cpuMicros - (Number.isNaN(ownMicros) ? 0 : ownMicros));
  const once = await run(spinMicros, input.paths.flat());
  const { samples } = once;
  const chunkP99s: number[] = [];
  let at = 0;
  for (const kind of input.paths) {
    chunkP99s.push(quantile(samples.slice(at, at + kind.length), 0.99));
    at += kind.length;
  }
  return {
    cpuMicros,
    ownMicros,
    spinMicros,
    bodyBytes: body.length,
    samples: samples.length,
    p50: quantile(samples, 0.5),
    p99: quantile(samples, 0.99),
    cpuP50: median(once.waits.map((w) => w.serverCpuMs)),
    chunkP99s,
    targetMs: input.targetMs,
    chunksOverTarget: chunkP99s.filter((ms) => ms > input.targetMs).length,
    samplesOverTarget: samples.filter((ms) => ms > input.targetMs).length,
    waited1ms: once.waits.filter((w) => w.cpuWaitMs >= 1).length,
  };
}

/** The floor in one line (the bench's log). */
export const floorText = (f: MachineFloor) =>
  `${f.cpuMicros} µs of CPU per answer (node:http's own ${f.ownMicros} + spin ${f.spinMicros}; measured p50 ${(f.cpuP50 * 1000).toFixed(0)} µs), ${f.bodyBytes} bytes: ` +
  `p50 ${f.p50.toFixed(2)} / p99 ${f.p99.toFixed(2)} ms over ${f.samples} samples; ` +
  `kind-sized chunks' p99 ${f.chunkP99s.map((ms) => ms.toFixed(2)).join(", ")} ms (${f.chunksOverTarget} of ${f.chunkP99s.length} over ${f.targetMs} ms); ` +
  `${f.samplesOverTarget} samples over ${f.targetMs} ms; ${f.waited1ms} waited ≥ 1 ms for a CPU`;
