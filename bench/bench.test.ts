import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs, selectedScenarios } from "./args.ts";
import { summarize } from "./load.ts";
import { blockOf, README_BLOCKS, withBlock } from "./readme-results.ts";
import { comparisonTable, renderMarkdown, renderTable, writeResults } from "./report.ts";
import { addedNsPerRequest, formatNumber, formatRatio, median, quantile, ratio } from "./stats.ts";
import type { BenchRun } from "./types.ts";

// The pure parts of the bench only: the bench itself never runs in npm test.

describe("median and quantile", () => {
  it.each([
    ["odd count", { given: [3, 1, 2], want: 2 }],
    ["even count: mean of the middle two", { given: [4, 1, 3, 2], want: 2.5 }],
    ["one value", { given: [7], want: 7 }],
    ["empty", { given: [], want: Number.NaN }],
  ])("median, %s", (_name, { given, want }) => {
    expect(median(given)).toBe(want);
  });

  it("does not reorder its input", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it.each([
    ["p50 of 1..100", { q: 0.5, want: 50 }],
    ["p99 of 1..100", { q: 0.99, want: 99 }],
    ["p100 is the maximum", { q: 1, want: 100 }],
    ["p0 is the minimum", { q: 0, want: 1 }],
  ])("quantile, %s (nearest rank)", (_name, { q, want }) => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(quantile(values, q)).toBe(want);
  });
});

describe("ratios", () => {
  it.each([
    ["server at half the ceiling", { a: 10_000, b: 20_000, want: 0.5 }],
    ["missing baseline", { a: 10_000, b: 0, want: Number.NaN }],
    ["missing measurement", { a: Number.NaN, b: 5, want: Number.NaN }],
  ])("%s", (_name, { a, b, want }) => {
    expect(ratio(a, b)).toBe(want);
  });

  it.each([
    ["large: whole, with separators", { n: 12_345.6, want: "12,346" }],
    ["an integer stays an integer", { n: 50, want: "50" }],
    ["tens: one decimal", { n: 12.345, want: "12.3" }],
    ["units: two decimals", { n: 1.234, want: "1.23" }],
    ["not a number", { n: Number.NaN, want: "n/a" }],
  ])("formats %s", (_name, { n, want }) => {
    expect(formatNumber(n)).toBe(want);
  });

  it("formats a ratio, and n/a when it could not be measured", () => {
    expect(formatRatio(0.6249)).toBe("0.62×");
    expect(formatRatio(Number.NaN)).toBe("n/a");
  });

  it("turns a throughput difference into ns per request", () => {
    // 10,000 req/s = 100 µs per request; 12,500 req/s = 80 µs: the feature costs 20 µs.
    expect(addedNsPerRequest(10_000, 12_500)).toBeCloseTo(20_000, 6);
    expect(addedNsPerRequest(0, 12_500)).toBeNaN();
  });

  it("summarizes runs figure by figure, and adds up failures", () => {
    const s = summarize([
      { rps: 100, p50: 5, p99: 30, non2xx: 0, errors: 0 },
      { rps: 300, p50: 1, p99: 10, non2xx: 2, errors: 0 },
      { rps: 200, p50: 3, p99: 20, non2xx: 0, errors: 1 },
    ]);
    expect(s).toMatchObject({ rps: 200, p50: 3, p99: 20, non2xx: 2, errors: 1 });
  });
});

describe("arguments", () => {
  it("defaults: every scenario but npm-ci, search at 1M included", () => {
    const args = parseArgs([]);
    expect(args.million).toBe("on");
    expect(selectedScenarios(args)).not.toContain("npm-ci");
  });
  it("--quick turns off the long parts", () => {
    expect(parseArgs(["--quick"])).toMatchObject({ quick: true, million: "off" });
  });
  it("--only keeps the canonical order and may name npm-ci", () => {
    expect(selectedScenarios(parseArgs(["--only", "npm-ci,search"]))).toEqual(["search", "npm-ci"]);
  });
  it("refuses an unknown scenario", () => {
    expect(() => parseArgs(["--only=nope"])).toThrow(/unknown scenario nope/);
  });
});

describe("report", () => {
  const run: BenchRun = {
    header: {
      date: "2026-11-25T23:00:00.000Z",
      commit: "abc1234",
      dirty: false,
      node: "v20.20.2",
      cpus: 2,
      cpuModel: "Test CPU",
      platform: "linux x64",
      quick: false,
      only: [],
      wallSeconds: 412.4,
      loadBefore: [1.25, 0.5, 0.25],
    },
    sections: [
      {
        id: "throughput",
        title: "Throughput",
        method: "autocannon.",
        tables: [{ columns: ["endpoint", "a|b"], rows: [["meta", 1]] }],
        targets: [
          { name: "server ≥ 50% of bare node:http, meta", met: true, measured: "0.62×" },
          { name: "never ran", met: null, measured: "n/a" },
          { name: "too slow", met: false, measured: "0.1×" },
        ],
        notes: ["a note"],
        data: {},
      },
    ],
  };

  it("renders a header, the targets at a glance and each section", () => {
    const md = renderMarkdown(run);
    expect(md).toContain("- commit: abc1234\n");
    expect(md).toContain("- machine: 2 cores (Test CPU), linux x64, node v20.20.2");
    expect(md).toContain(
      "- machine load average before the run (1 / 5 / 15 min, 2 cores): 1.25 / 0.50 / 0.25 — busy in the minutes before",
    );
    const quiet = renderMarkdown({ ...run, header: { ...run.header, loadBefore: [0.2, 0.4, 0.9] } });
    expect(quiet).toContain("(1 / 5 / 15 min, 2 cores): 0.20 / 0.40 / 0.90\n");
    expect(md).toContain("| server ≥ 50% of bare node:http, meta | met | 0.62× |");
    expect(md).toContain("| never ran | not measured | n/a |");
    expect(md).toContain("| too slow | **missed** | 0.1× |");
    expect(md).toContain("## Throughput\n\nautocannon.");
    expect(md).toContain("- a note");
  });

  it("compares each target with the previous full run's figure", () => {
    const withValues = (meta: number, slow: number): BenchRun => ({
      ...run,
      sections: [
        {
          ...(run.sections[0] as BenchRun["sections"][number]),
          targets: [
            { name: "meta ratio", met: meta >= 0.5, measured: "", value: meta, unit: "×" },
            { name: "slow", met: slow < 20, measured: "", value: slow, unit: " ms" },
            { name: "no figure", met: true, measured: "" },
          ],
        },
      ],
    });
    const table = comparisonTable(withValues(0.55, 18), withValues(0.5, 24));
    expect(table.columns[1]).toBe("previous run (2026-11-25 23:00, abc1234)");
    expect(table.rows).toEqual([
      ["meta ratio", "0.50× (met)", "0.55× (met)", "+10%"],
      ["slow", "24 ms (**missed**)", "18 ms (met)", "−25%"],
      ["no figure", "met", "met", "—"],
    ]);
  });

  it("never lets a partial run overwrite the full results", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-report-"));
    try {
      expect(writeResults(run, dir)).toBe("results.md");
      const partial = { ...run, header: { ...run.header, only: ["search"] } };
      expect(writeResults(partial, dir)).toBe("results-partial.md");
      expect(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")).header.only).toEqual([]);
      // A second full run is compared with the first.
      writeResults(run, dir);
      expect(readFileSync(join(dir, "results.md"), "utf8")).toContain(
        "## Compared with the previous full run",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("escapes pipes inside cells", () => {
    expect(renderTable({ columns: ["a|b"], rows: [["x|y"]] })).toBe("| a\\|b |\n|---|\n| x\\|y |");
  });
});

describe("README results blocks", () => {
  const repo = join(import.meta.dirname, "..");
  const committed = JSON.parse(readFileSync(join(repo, "bench/results.json"), "utf8")) as BenchRun;

  it.each(README_BLOCKS)(
    "$file shows the committed full run (npm run bench rewrites it)",
    ({ file, name, render }) => {
      expect(blockOf(readFileSync(join(repo, file), "utf8"), name)).toBe(render(committed));
    },
  );

  it("replaces only what is between the markers", () => {
    const text =
      "a\n<!-- bench:x:start (generated by npm run bench; do not edit) -->\nold\n<!-- bench:x:end -->\nb";
    const next = withBlock(text, "x", "new");
    expect(blockOf(next, "x")).toBe("new");
    expect(next.startsWith("a\n") && next.endsWith("\nb")).toBe(true);
  });
});
