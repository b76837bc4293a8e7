import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { processCpuMs, topProcesses, WaitMeter } from "./cpu-waits.ts";

/** /proc/<pid>/task/<tid>/schedstat: Linux only (elsewhere the meter reports nothing). */
const linux = existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`);

describe("WaitMeter", () => {
  it.runIf(linux)("reads a thread's CPU time and CPU wait around a span", () => {
    // This process as the "server": its main thread is busy for 30 ms of wall time.
    const meter = new WaitMeter(process.pid);
    meter.start();
    const until = performance.now() + 30;
    let spins = 0;
    while (performance.now() < until) spins++;
    const w = meter.stop();
    meter.close();
    expect(spins).toBeGreaterThan(0);
    expect(w).toBeDefined();
    // On a CPU or waiting for one, the thread accounts for the 30 ms (the scheduler's own clock).
    expect((w?.serverCpuMs ?? 0) + (w?.cpuWaitMs ?? 0)).toBeGreaterThan(20);
    expect(w?.cpuWaitMs).toBeGreaterThanOrEqual(0);
    expect(w?.serverOtherThreadsWaitMs).toBeGreaterThanOrEqual(0);
    expect(w?.serverOtherThreadsCpuMs).toBeGreaterThanOrEqual(w?.serverV8WorkersCpuMs ?? 0);
    // Client and server are the same thread here: both saw the spin.
    expect(w?.clientCpuMs).toBeGreaterThan(0);
    expect(w?.serverWaitMs).toBeGreaterThanOrEqual(0);
    expect((w?.serverWaitMs ?? 0) + (w?.clientWaitMs ?? 0)).toBeCloseTo(w?.cpuWaitMs ?? -1, 6);
    // The machine's ticks over 30 ms of two CPUs (where /proc/stat exists): 10 ms steps, never negative.
    if (w?.machineBusyMs !== undefined) {
      expect(w.machineBusyMs + (w.machineIdleMs ?? 0) + (w.machineStealMs ?? 0)).toBeGreaterThanOrEqual(0);
      expect(w.machineBusyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it.runIf(linux)("names the processes that used CPU between two readings, skipping the given ones", () => {
    const before = processCpuMs();
    const until = performance.now() + 50;
    while (performance.now() < until);
    const after = processCpuMs();
    expect(after.get(process.pid)).toBeGreaterThanOrEqual(before.get(process.pid) ?? 0);
    const top = topProcesses(before, after, [process.pid], 5);
    expect(top.every((p) => p.pid !== process.pid && p.cpuMs > 0 && p.command.length > 0)).toBe(true);
    expect(topProcesses(before, after, [], 50).some((p) => p.pid === process.pid)).toBe(true);
  });

  it("reports nothing for a process that is not there", () => {
    const meter = new WaitMeter(2 ** 30);
    meter.start();
    expect(meter.stop()).toBeUndefined();
    meter.close();
  });

  it("counts the spans that overlap a GC pause of this process", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const meter = new WaitMeter(process.pid);
    const before = performance.now();
    gc();
    const after = performance.now();
    expect(
      await meter.gcOverlaps([
        [before, after],
        [after + 60_000, after + 60_001],
      ]),
    ).toEqual([true, false]);
    meter.close();
  });
});
