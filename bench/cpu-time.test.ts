import { describe, expect, it } from "vitest";
import { threadCpuSeconds } from "./cpu-time.ts";

const onLinux = process.platform === "linux";

describe("threadCpuSeconds", () => {
  it.runIf(onLinux)("counts work done on the main thread as main, not as the other threads", () => {
    const before = threadCpuSeconds(process.pid);
    // Spin until this process has used 60 ms more CPU (its own measure, so a loaded machine only slows it).
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user < 60_000) Math.sqrt(Math.random());
    const after = threadCpuSeconds(process.pid);
    expect(after.main - before.main).toBeGreaterThanOrEqual(0.05);
    expect(after.others - before.others).toBeLessThan(0.05);
    expect(after.others).toBeGreaterThanOrEqual(0);
  });

  it("is NaN without a process to read", () => {
    expect(threadCpuSeconds(undefined).main).toBeNaN();
    expect(threadCpuSeconds(2 ** 30).others).toBeNaN();
  });
});
