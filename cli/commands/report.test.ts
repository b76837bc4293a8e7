/** `dealkit report FILE.json ...`: earlier JSON reports (runs and matrices) into one matrix. */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatJson } from "../../conformance/reporters/json.ts";
import { broken, mock, reference, reports } from "../../conformance/reporters/matrix-fixtures.ts";
import { formatMatrixJson } from "../../conformance/reporters/matrix-formats.ts";
import { formatMatrixMarkdown } from "../../conformance/reporters/matrix-markdown.ts";
import { UsageError } from "../args.ts";
import { run as reportCommand } from "./report.ts";

describe("dealkit report FILE.json ...", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "dealkit-report-"));
    await writeFile(join(dir, "reference.json"), formatJson(reference));
    // Two targets in one file, as `--base-url A --base-url B --report json=` writes them.
    await writeFile(join(dir, "pair.json"), formatMatrixJson([mock, broken]));
    await writeFile(join(dir, "other.json"), JSON.stringify({ hello: "world" }));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reads run reports and matrix files into one matrix, and exits as the worst run did", async () => {
    const html = join(dir, "out", "matrix.html");
    const md = join(dir, "matrix.md");
    const code = await reportCommand([
      join(dir, "reference.json"),
      join(dir, "pair.json"),
      "--report",
      `html=${html}`,
      "--report",
      `markdown=${md}`,
    ]);
    expect(code).toBe(1);
    expect(await readFile(md, "utf8")).toBe(
      formatMatrixMarkdown(JSON.parse(formatMatrixJson(reports)).targets),
    );
    // The mock left a check not exercised: incomplete, named after the worst.
    expect(await readFile(html, "utf8")).toContain("<h1>1 of 3 targets failed · 1 incomplete</h1>");
  });

  it("re-renders one report as itself, and names a file that is no report", async () => {
    const single = join(dir, "single.html");
    expect(await reportCommand([join(dir, "reference.json"), "--report", `html=${single}`])).toBe(0);
    expect(await readFile(single, "utf8")).toContain("<h1>Passed</h1>");
    await expect(reportCommand([join(dir, "other.json")])).rejects.toThrow(
      /other\.json: not a dealkit JSON report/,
    );
    await expect(reportCommand([join(dir, "missing.json")])).rejects.toThrow(
      /missing\.json: not a readable JSON report/,
    );
    await expect(reportCommand([])).rejects.toThrow(/at least one JSON report/);
  });

  it.each([
    ["null", { given: "null", want: "not a dealkit JSON report: not a JSON object" }],
    ["a list", { given: "[]", want: "not a dealkit JSON report: not a JSON object" }],
    ["no baseUrl", { given: '{"hello":"world"}', want: "not a dealkit JSON report: no baseUrl" }],
    ["no checks", { given: '{"baseUrl":"http://x"}', want: "not a dealkit JSON report: no checks list" }],
    [
      "a check without name",
      {
        given: '{"baseUrl":"http://x","checks":[null]}',
        want: "not a dealkit JSON report: checks[0] has no name and status",
      },
    ],
    ["an empty matrix", { given: '{"targets":[]}', want: "not a dealkit JSON report (targets is empty)" }],
    [
      "a matrix with a bad target",
      {
        given: '{"targets":[{"baseUrl":"http://x","checks":[]},{}]}',
        want: "not a dealkit JSON report (targets[1]): no baseUrl",
      },
    ],
    [
      "a syntax error",
      {
        given: '{\n  "baseUrl": [,\n}',
        want: ':2:15: Unexpected , in flow sequence\n\n  "baseUrl": [,\n              ^',
      },
    ],
  ])("refuses %s as a usage error (exit 2) naming the file and the reason", async (name, { given, want }) => {
    const path = join(dir, `bad-${name.replace(/\W+/g, "-")}.json`);
    await writeFile(path, given);
    const err = await reportCommand([path]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`${path}${want.startsWith(":") ? "" : ": "}${want}`);
  });
});
