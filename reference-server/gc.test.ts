/**
 * The SQLite binding survives a garbage collection of finished statements on the Node it runs on.
 * better-sqlite3 12 aborted the process on Node 24 (`Assertion failed: (env) != nullptr` in
 * `Statement::~Statement`) at the first full collection after start: a child process builds the
 * server, answers requests, closes, and collects garbage; it must exit 0.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const SCRIPT = `
const { buildApp } = await import(${JSON.stringify(new URL("./index.ts", import.meta.url).href)});
for (let round = 0; round < 3; round++) {
  const built = await buildApp({ dbPath: ":memory:", size: 300, logger: false });
  for (const url of ["/api/v1/meta", "/api/v1/rank?act=shiwutian&limit=300", "/api/v1/search?q=%E4%BA%AC%E4%B8%9C"]) {
    const res = await built.app.inject({ url });
    if (res.statusCode !== 200) throw new Error(url + " answered " + res.statusCode);
  }
  await built.close();
  globalThis.gc();
}
globalThis.gc();
`;

describe(`the SQLite binding on Node ${process.version}`, () => {
  it("survives garbage collection after statements were used and the database closed", () => {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", SCRIPT],
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(child.stderr).not.toMatch(/Assertion failed/);
    expect(child.status, child.stderr).toBe(0);
  }, 70_000);
});
