/**
 * The pictures of bench/results.md: its key series as SVG files in bench/charts/, drawn from a
 * run's raw figures (`Section.data` of results.json) by svg.ts. Search latency against the data
 * size per query kind, the throughput of each server as a ratio of bare node:http's, and the field
 * run's requests over time. A series a run did not measure is said in words instead.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pairedSummary } from "./scenarios/throughput-pairs.ts";
import { median } from "./stats.ts";
import { barChartSvg, lineChartSvg, type Reference, timelineChartSvg } from "./svg.ts";
import type { BenchRun, Section } from "./types.ts";

export interface Chart {
  /** File name in bench/charts/. */
  file: string;
  title: string;
  svg: string;
}

const section = (run: BenchRun, id: string): Section | undefined => run.sections.find((s) => s.id === id);

/** The first target whose name matches, e.g. "p99 ≤ 2 ms at 200,000 alerts": its figures are the line the chart draws. */
function targetMatch(s: Section | undefined, pattern: RegExp): RegExpExecArray | undefined {
  for (const t of s?.targets ?? []) {
    const m = pattern.exec(t.name);
    if (m?.[1]) return m;
  }
  return undefined;
}

interface SearchData {
  queries: { id: string; label: string }[];
  results: { db: { size: number }; kinds: { id: string; firstSeen: { p50: number; p99: number } }[] }[];
}

function searchChart(run: BenchRun): Chart | undefined {
  const s = section(run, "search");
  const data = s?.data as SearchData | undefined;
  if (!data?.results?.length) return undefined;
  // The first size's target (the strictest: a larger database is allowed more).
  const target = targetMatch(s, /p99 ([<≤]) (\d+(?:\.\d+)?) ms(?: at ([\d,]+) alerts)?/);
  const reference: Reference | undefined = target
    ? {
        y: Number(target[2]),
        label: `target: p99 ${target[1]} ${target[2]} ms${target[3] ? ` at ${target[3]} alerts` : ""}`,
      }
    : undefined;
  return {
    file: "search-latency.svg",
    title: "Search latency against data size",
    svg: lineChartSvg({
      title: "Search p99 latency (first-seen queries) against data size, per query kind",
      xLabel: "alerts in the database (log scale)",
      yLabel: "p99 ms",
      logX: true,
      ...(reference ? { reference } : {}),
      series: data.queries.map((q) => ({
        name: q.label,
        points: data.results.flatMap((r) => {
          const k = r.kinds.find((x) => x.id === q.id);
          return k ? [[r.db.size, k.firstSeen.p99] as [number, number]] : [];
        }),
      })),
    }),
  };
}

interface ThroughputData {
  targets: { name: string; label: string }[];
  runs: Record<string, Record<string, { rps: number }[]>>;
  /** Per endpoint, each adjacent pair's server ÷ node:http req/s (throughput-pairs.ts). */
  pairedRatios?: Record<string, number[]>;
}

const BASELINE = "baseline";
/** The target whose verdict is the median of paired ratios: its bar draws that figure. */
const PAIRED = "server";

function throughputChart(run: BenchRun): Chart | undefined {
  const s = section(run, "throughput");
  const data = s?.data as ThroughputData | undefined;
  if (!data?.runs || !data.targets) return undefined;
  const others = data.targets.filter((t) => t.name !== BASELINE);
  const share = Number(targetMatch(s, /≥ (\d+)% of bare node:http/)?.[1] ?? Number.NaN);
  const reference: Reference | undefined = Number.isFinite(share)
    ? { y: share / 100, label: `target: server ≥ ${share}% of node:http` }
    : undefined;
  const medianRps = (runs: { rps: number }[] | undefined) =>
    runs?.length ? median(runs.map((r) => r.rps)) : undefined;
  return {
    file: "throughput-ratios.svg",
    title: "Throughput as a ratio of bare node:http",
    svg: barChartSvg({
      title:
        "Throughput as a ratio of bare node:http (same bytes): the reference server's median of adjacent pairs (its verdict), the others' ratio of medians",
      yLabel: "req/s ÷ node:http req/s",
      names: others.map((t) => t.label),
      ...(reference ? { reference } : {}),
      groups: Object.entries(data.runs).map(([endpoint, byTarget]) => {
        const base = medianRps(byTarget[BASELINE]);
        return {
          label: endpoint,
          values: others.map((t) => {
            const pairs = t.name === PAIRED ? data.pairedRatios?.[endpoint] : undefined;
            if (pairs?.length) return pairedSummary(pairs).median;
            const rps = medianRps(byTarget[t.name]);
            return rps !== undefined && base ? rps / base : undefined;
          }),
        };
      }),
    }),
  };
}

/** The field run's timeline as the bench keeps it: [ms from the start, status, phase] per request. */
export type FieldPoint = [number, number, string?];

function fieldChart(run: BenchRun): Chart | undefined {
  const data = section(run, "field")?.data as { timeline?: FieldPoint[]; durationMs?: number } | undefined;
  if (!data?.timeline?.length) return undefined;
  return {
    file: "field-timeline.svg",
    title: "The field run's requests over time",
    svg: timelineChartSvg({
      title: `Field run: ${data.timeline.length} requests from one address, by status class`,
      durationMs: data.durationMs ?? 0,
      points: data.timeline.map(([at, status, phase]) => ({ at, status, ...(phase ? { phase } : {}) })),
    }),
  };
}

const CHARTS = [
  { make: searchChart, missing: "search latency: this run has no search figures" },
  { make: throughputChart, missing: "throughput ratios: this run has no throughput figures" },
  {
    make: fieldChart,
    missing:
      "the field run's timeline: this run kept none (the field scenario keeps it since the charts came; the next full run draws it)",
  },
];

/** The charts a run can draw, and what it cannot, in words. */
export function benchCharts(run: BenchRun): { charts: Chart[]; missing: string[] } {
  const charts: Chart[] = [];
  const missing: string[] = [];
  for (const c of CHARTS) {
    const chart = c.make(run);
    if (chart) charts.push(chart);
    else missing.push(c.missing);
  }
  return { charts, missing };
}

/** The block of results.md that shows them (readme-results.ts keeps it current). */
export function chartsMarkdown(run: BenchRun): string {
  const { charts, missing } = benchCharts(run);
  return [
    ...charts.map((c) => `![${c.title}](charts/${c.file})`),
    ...missing.map((m) => `- Not drawn: ${m}.`),
  ].join("\n\n");
}

/** Writes the SVG files into `dir` (bench/charts/). */
export function writeCharts(run: BenchRun, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const { charts } = benchCharts(run);
  for (const c of charts) writeFileSync(join(dir, c.file), c.svg);
  return charts.map((c) => c.file);
}
