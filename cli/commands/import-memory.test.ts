import { execFile } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "dealkit-import-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;
/** The long line: large enough that holding it once (let alone as a string too) shows. */
const LINE_MIB = 48;

const alert = (id: number) =>
  JSON.stringify({ id, title: `t${id}`, shijianchuo: 1_780_000_000, cateid: "10", url: `/weibo/${id}.html` });

const HEAD = '{"id":2,"title":"';
const TAIL = '","cateid":"10","url":"/weibo/2.html","shijianchuo":1780000000}';
const LONG_BYTES = HEAD.length + LINE_MIB * MiB + TAIL.length;

/** Writes the file a MiB at a time: the test itself never holds the long line. */
function writeLongLineFile(file: string, array: boolean): void {
  const fd = openSync(file, "w");
  const mib = Buffer.alloc(MiB, "x");
  writeSync(fd, array ? `[${alert(1)},\n${HEAD}` : `${alert(1)}\n${HEAD}`);
  for (let i = 0; i < LINE_MIB; i++) writeSync(fd, mib);
  writeSync(fd, `${TAIL}${array ? "," : ""}\n`);
  writeSync(fd, array ? `${alert(3)}]\n` : `${alert(3)}\n`);
  closeSync(fd);
}

interface Measured {
  code: number;
  /** RSS after a first, small import (modules, spec and SQLite loaded), in bytes. */
  before: number;
  /** The peak RSS sampled during the import under test, in bytes. */
  peak: number;
  stderr: string;
}

/**
 * `dealkit import ARGS` in a fresh process that first imports a small file (so everything is
 * loaded), then the file under test, and reports its RSS before and its peak RSS.
 */
function measure(args: string[]): Promise<Measured> {
  const small = join(dir, "small.ndjson");
  writeFileSync(small, `${alert(9)}\n`);
  const main = new URL("../main.ts", import.meta.url).href;
  const script = `
    import { register } from "tsx/esm/api";
    register();
    const { main } = await import(${JSON.stringify(main)});
    await main(["import", ${JSON.stringify(small)}, "--db", ${JSON.stringify(join(dir, "warm.db"))}]);
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    // Sampled during this import only: the process's lifetime peak could hide its growth.
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const code = await main(${JSON.stringify(["import", ...args])});
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log("RESULT " + JSON.stringify({ code, before, peak }));
  `;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--expose-gc", "--input-type=module", "-e", script],
      { cwd: new URL("../..", import.meta.url).pathname, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
        if (!line) return reject(new Error(`no result (${error?.message}): ${stderr}`));
        resolve({ ...(JSON.parse(line.slice(7)) as Omit<Measured, "stderr">), stderr });
      },
    );
  });
}

const mb = (bytes: number) => (bytes / MiB).toFixed(0);

describe("dealkit import: a long line does not cost its length in memory", () => {
  it.each([
    ["NDJSON", false],
    ["a JSON array", true],
  ])(
    `refuses a ${LINE_MIB} MiB record of %s by its size, naming its line, in bounded memory`,
    async (_, array) => {
      const file = join(dir, array ? "long.json" : "long.ndjson");
      writeLongLineFile(file, array);
      const db = join(dir, array ? "a.db" : "n.db");
      const refused = await measure([file, "--db", db]);
      expect(refused.code).toBe(1);
      const at = array ? "item 2 (line 2)" : "line 2";
      expect(refused.stderr).toContain(
        `  ${at}: the record is ${LONG_BYTES} bytes, over the limit of 1048576 bytes (--max-record-bytes)`,
      );
      // Buffering the line once would add 48 MiB; the importer before streaming took 70 times a line's size.
      expect(refused.peak - refused.before).toBeLessThan(24 * MiB);
      expect(refused.peak).toBeLessThan(300 * MiB);
      console.log(
        `${LINE_MIB} MiB record: RSS ${mb(refused.before)} MiB before, peak ${mb(refused.peak)} MiB`,
      );

      const skipped = await measure([file, "--db", db, "--skip-invalid"]);
      expect(skipped.code).toBe(0);
      expect(skipped.stderr).toContain(`  ${at}: the record is`);
      expect(skipped.peak - skipped.before).toBeLessThan(24 * MiB);
    },
  );
});
