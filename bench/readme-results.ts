/**
 * The latest full run as shown in README.md (targets), bench/README.md (targets and the
 * throughput table) and bench/results.md (its charts, with the SVG files): generated blocks,
 * rewritten by every full `npm run bench`, so that the READMEs cannot drift from
 * bench/results.json (bench.test.ts checks they match).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chartsMarkdown, writeCharts } from "./charts.ts";
import { end, start } from "./markers.ts";
import { renderTable, targetsTable } from "./report.ts";
import type { BenchRun } from "./types.ts";

function provenance(run: BenchRun): string {
  const h = run.header;
  return `From the committed run (${h.date.slice(0, 19)}Z, commit ${h.commit}, ${h.cpus} cores, node ${h.node}, wall time ${h.wallSeconds.toFixed(0)} s):`;
}

/** Each README and the blocks it holds. */
export const README_BLOCKS: { file: string; name: string; render: (run: BenchRun) => string }[] = [
  { file: "README.md", name: "targets", render: (run) => `${provenance(run)}\n\n${targetsTable(run)}` },
  {
    file: "bench/README.md",
    name: "latest",
    render: (run) => {
      const throughput = run.sections.find((s) => s.id === "throughput")?.tables[0];
      return [provenance(run), targetsTable(run), throughput ? renderTable(throughput) : ""]
        .filter(Boolean)
        .join("\n\n");
    },
  },
  // The pictures of results.md: its block links the SVG files updateReadmes writes (charts.ts).
  { file: "bench/results.md", name: "charts", render: chartsMarkdown },
];

/** The text between a block's markers, or undefined when the file has no such block. */
export function blockOf(text: string, name: string): string | undefined {
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from === -1 || to === -1) return undefined;
  return text.slice(from + start(name).length, to).trim();
}

export function withBlock(text: string, name: string, content: string): string {
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from === -1 || to === -1) throw new Error(`no bench:${name} block`);
  return `${text.slice(0, from)}${start(name)}\n${content}\n${text.slice(to)}`;
}

/** Rewrites the blocks of both READMEs from a full run. */
export function updateReadmes(run: BenchRun, repo: string): void {
  writeCharts(run, join(repo, "bench", "charts"));
  for (const { file, name, render } of README_BLOCKS) {
    const path = join(repo, file);
    writeFileSync(path, withBlock(readFileSync(path, "utf8"), name, render(run)));
  }
}
