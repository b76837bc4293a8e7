import { describe, expect, it } from "vitest";
import { parseArgs } from "../args.ts";
import type { BenchContext } from "../context.ts";
import { queryKinds } from "./search-queries.ts";
import { report } from "./search-report.ts";
import type { KindResult, MachineFloor, SizeResult } from "./search-results.ts";

const ctx: BenchContext = {
  args: parseArgs(["--only", "search", "--no-1m"]),
  runs: 3,
  seconds: 3,
  warmupSeconds: 1,
  connections: 20,
  tmp: "/nonexistent",
  log: () => {},
};
const kinds = queryKinds();
const latency = (p99: number) => ({ p50: 0.4, p99, samples: 150 });

/** A size whose kinds' first-seen p99 are `p99s`, in the kinds' order. */
function size(n: number, p99s: number[], floor?: MachineFloor): SizeResult {
  return {
    db: { size: n, referenceTime: 0, generationSeconds: 1, reused: true, bytes: 1e6 },
    kinds: kinds.map(
      (k, i): KindResult => ({
        id: k.id,
        repeated: latency(0.3),
        firstSeen: latency(p99s[i] as number),
        non2xx: 0,
        meanTotal: 10,
      }),
    ),
    floor,
  };
}

const floor: MachineFloor = {
  cpuMicros: 340,
  ownMicros: 150,
  spinMicros: 190,
  bodyBytes: 10_104,
  samples: 600,
  p50: 0.55,
  p99: 2.6,
  cpuP50: 0.345,
  chunkP99s: [2.4, 1.8, 2.9, 2.2],
  targetMs: 2,
  chunksOverTarget: 3,
  samplesOverTarget: 9,
  waited1ms: 12,
};

describe("search report: the machine floor", () => {
  it("shows the floor beside the 200k target, whose verdict stays on the server's p99", () => {
    const section = report(
      ctx,
      kinds,
      [size(10_000, [1, 1, 1, 1]), size(200_000, [1.5, 1.9, 1.2, 1.7], floor)],
      -10,
    );
    const target = section.targets.find((t) => t.name.includes("200,000"));
    // The floor's p99 (2.6 ms) is over the target; the server's worst (1.9 ms) is not: met.
    expect(target?.met).toBe(true);
    expect(target?.value).toBe(1.9);
    expect(target?.measured).toContain(
      "this run's machine floor: p99 2.60 ms (340 µs of CPU per answer; 3 of 4 kind-sized chunks over the target)",
    );
    const table = section.tables.find((t) => t.caption?.startsWith("Machine floor"));
    // A column per size the floor ran at (200k and up), not 10k.
    expect(table?.columns).toEqual(["", "200,000 alerts"]);
    expect(table?.rows).toContainEqual(["p50 / p99 ms", "0.55 / 2.60"]);
    expect(table?.rows).toContainEqual([
      "p99 of each kind-sized chunk, in order, ms",
      "2.40, 1.80, 2.90, 2.20",
    ]);
  });

  it("leaves the table and the floor text out where no size measured it", () => {
    const section = report(ctx, kinds, [size(10_000, [1, 1, 1, 1]), size(200_000, [2.5, 1, 1, 1])], 0);
    expect(section.tables.some((t) => t.caption?.startsWith("Machine floor"))).toBe(false);
    const target = section.targets.find((t) => t.name.includes("200,000"));
    expect(target?.met).toBe(false);
    expect(target?.measured).not.toContain("machine floor");
  });
});
