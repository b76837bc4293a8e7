import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { threadCpuSeconds } from "../cpu-time.ts";
import { type Child, REPO, startChild, urlOf } from "../procs.ts";

const linux = existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`);

/** A search answer's kind of bytes: UTF-8 Chinese inside JSON, so a re-encoding would show. */
const BODY = Buffer.from(
  JSON.stringify({ data: [{ title: "天猫 限时 特价 ¥19.9", id: 7 }], meta: { total: 1234 } }),
);
const CPU_MICROS = 10_000;
const REQUESTS = 8;

let dir: string;
let floor: Child;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "spin-floor-"));
  const bodyFile = join(dir, "body");
  writeFileSync(bodyFile, BODY);
  floor = await startChild(join(REPO, "bench/servers/spin-floor.ts"), {
    bodyFile,
    contentType: "application/json; charset=utf-8",
    cpuMicros: CPU_MICROS,
  });
});

afterAll(async () => {
  await floor?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("spin-floor (the search scenario's machine floor)", () => {
  it("answers any path with the body byte for byte, Content-Type and Content-Length", async () => {
    for (const path of ["/api/v1/search?q=%E5%A4%A9%E7%8C%AB", "/anything"]) {
      const res = await fetch(`${urlOf(floor)}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("content-length")).toBe(String(BODY.length));
      expect(Buffer.from(await res.arrayBuffer()).equals(BODY)).toBe(true);
    }
  });

  it.runIf(linux)(
    "burns at least its CPU time per request (a lower bound: the machine is shared)",
    async () => {
      const cpu = () => {
        const t = threadCpuSeconds(floor.process.pid);
        return t.main + t.others;
      };
      const before = cpu();
      for (let i = 0; i < REQUESTS; i++) await (await fetch(`${urlOf(floor)}/q?${i}`)).arrayBuffer();
      const usedMicros = (cpu() - before) * 1e6;
      expect(usedMicros).toBeGreaterThanOrEqual(REQUESTS * CPU_MICROS);
    },
  );
});
