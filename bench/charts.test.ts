import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchCharts, chartsMarkdown, type FieldPoint } from "./charts.ts";
import { blockOf } from "./readme-results.ts";
import { renderMarkdown } from "./report.ts";
import { barChartSvg, lineChartSvg, niceTicks, timelineChartSvg } from "./svg.ts";
import type { BenchRun } from "./types.ts";

const HOSTILE = `<script>alert("x")</script> & 'quotes' ]]>`;

/**
 * Well-formed XML, checked strictly enough for what svg.ts writes: every tag closed in order,
 * attributes quoted, and no raw `<` or bare `&` in text or in an attribute value.
 */
function wellFormed(doc: string): string | undefined {
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi;
  const stack: string[] = [];
  let at = 0;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  while (at < doc.length) {
    const lt = doc.indexOf("<", at);
    const text = doc.slice(at, lt === -1 ? doc.length : lt);
    if (text.replace(entity, "").includes("&")) return `bare & in text near ${text.slice(0, 40)}`;
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(doc);
    if (!m) return `malformed tag at ${doc.slice(lt, lt + 60)}`;
    const [whole, close, name, attrs, self] = m;
    if ((attrs ?? "").replace(entity, "").includes("&")) return `bare & in an attribute of <${name}>`;
    if (close) {
      if (stack.pop() !== name) return `</${name}> closes the wrong element`;
    } else if (!self) stack.push(name ?? "");
    at = lt + whole.length;
  }
  return stack.length === 0 ? undefined : `unclosed <${stack.join("> <")}>`;
}

const count = (svg: string, re: RegExp) => svg.match(re)?.length ?? 0;

describe("the SVG charts (bench/svg.ts)", () => {
  it("draws a line chart: one point a measurement, every name escaped, well-formed", () => {
    const svg = lineChartSvg({
      title: HOSTILE,
      xLabel: "alerts",
      yLabel: "p99 ms",
      logX: true,
      reference: { y: 20, label: HOSTILE },
      series: [
        {
          name: HOSTILE,
          points: [
            [10_000, 1],
            [200_000, 2],
            [1_000_000, 4],
          ],
        },
        {
          name: "or",
          points: [
            [10_000, 3],
            [200_000, 5],
          ],
        },
      ],
    });
    expect(wellFormed(svg)).toBeUndefined();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(count(svg, /<circle class="point"/g)).toBe(5);
    expect(count(svg, /<polyline /g)).toBe(2);
    expect(count(svg, /<line class="reference"/g)).toBe(1);
    expect(svg).not.toContain("<script");
    expect(svg).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quotes&apos; ]]&gt;",
    );
    // Log scale: 200,000 sits nearer 1,000,000 than 10,000 does, in proportion to the logs.
    const cx = [...svg.matchAll(/<circle class="point" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    const [a = 0, b = 0, c = 0] = cx;
    expect((b - a) / (c - a)).toBeCloseTo(Math.log10(20) / Math.log10(100), 2);
  });

  it("draws grouped bars: one a measured value, none for what was not measured", () => {
    const svg = barChartSvg({
      title: "ratios",
      yLabel: "×",
      names: ["server", HOSTILE],
      groups: [
        { label: "rank-20", values: [0.68, 0.09] },
        { label: HOSTILE, values: [1.32, undefined] },
      ],
      reference: { y: 0.5, label: "target" },
    });
    expect(wellFormed(svg)).toBeUndefined();
    expect(count(svg, /<rect class="bar"/g)).toBe(3);
    expect(svg).not.toContain("<script");
  });

  it("draws a timeline: one point a request, the phases as bands", () => {
    const points = Array.from({ length: 174 }, (_, i) => ({
      at: i * 700,
      status: i > 60 && i < 70 ? 429 : 200,
      phase: i < 60 ? "burst" : i < 70 ? "over-limit" : i < 80 ? "wait" : HOSTILE,
    }));
    const svg = timelineChartSvg({ title: "field", points, durationMs: 125_000 });
    expect(wellFormed(svg)).toBeUndefined();
    expect(count(svg, /<circle class="point"/g)).toBe(174);
    expect(count(svg, /<title>burst: /g)).toBe(1);
    expect(count(svg, /<title>wait: /g)).toBe(1);
    expect(svg).not.toContain("<script");
  });

  it("picks round axis ticks that cover the data", () => {
    expect(niceTicks(0, 5.83)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(0, 20)).toEqual([0, 5, 10, 15, 20]);
    expect(niceTicks(0, 2.13)).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
  });

  it("says the checker refuses what is not well-formed", () => {
    expect(wellFormed("<svg><g></svg>")).toMatch(/closes the wrong element/);
    expect(wellFormed("<svg>a & b</svg>")).toMatch(/bare &/);
    expect(wellFormed('<svg><text x="<">a</text></svg>')).toMatch(/malformed tag/);
  });
});

describe("bench/results.md's charts (bench/charts.ts)", () => {
  const repo = join(import.meta.dirname, "..");
  const committed = JSON.parse(readFileSync(join(repo, "bench/results.json"), "utf8")) as BenchRun;
  const { charts } = benchCharts(committed);

  it("draws the committed run's search latency: a point per query kind and data size", () => {
    const search = charts.find((c) => c.file === "search-latency.svg");
    const data = committed.sections.find((s) => s.id === "search")?.data as {
      queries: unknown[];
      results: { kinds: unknown[] }[];
    };
    expect(count(search?.svg ?? "", /<circle class="point"/g)).toBe(
      data.results.reduce((n, r) => n + r.kinds.length, 0),
    );
    expect(count(search?.svg ?? "", /<polyline /g)).toBe(data.queries.length);
    // The line of the first size's target, as the run's targets table names it.
    const target = committed.sections
      .find((s) => s.id === "search")
      ?.targets?.map((t) => /p99 ≤ (\d+(?:\.\d+)?) ms at ([\d,]+) alerts/.exec(t.name))
      .find((m) => m);
    expect(target, "the search section states its p99 targets").toBeTruthy();
    expect(search?.svg).toContain(`target: p99 ≤ ${target?.[1]} ms at ${target?.[2]} alerts`);
  });

  it("draws the throughput ratios against bare node:http: a bar per endpoint and measured server", () => {
    const bars = charts.find((c) => c.file === "throughput-ratios.svg")?.svg ?? "";
    const data = committed.sections.find((s) => s.id === "throughput")?.data as {
      runs: Record<string, Record<string, unknown[]>>;
    };
    const measured = Object.values(data.runs).reduce(
      (n, byTarget) => n + Object.keys(byTarget).filter((t) => t !== "baseline").length,
      0,
    );
    expect(count(bars, /<rect class="bar"/g)).toBe(measured);
    // rank-20: the bar's ratio is the one the targets table states (rounded there to 2 places).
    const stated = committed.sections
      .find((s) => s.id === "throughput")
      ?.targets?.find((t) => /bare node:http, rank-20$/.test(t.name))?.value;
    const drawn = /<title>rank-20, reference server \(limit raised\): ([0-9.]+)<\/title>/.exec(bars)?.[1];
    expect(Number(drawn)).toBeCloseTo(stated ?? Number.NaN, 2);
  });

  it("draws the field run's timeline when the run kept it, and says so when not", () => {
    const withoutTimeline: BenchRun = {
      ...committed,
      sections: committed.sections.map((s) =>
        s.id === "field" ? { ...s, data: { ...(s.data as object), timeline: undefined } } : s,
      ),
    };
    expect(chartsMarkdown(withoutTimeline)).toMatch(/Not drawn: the field run's timeline/);
    const timeline: FieldPoint[] = Array.from({ length: 174 }, (_, i) => [
      i * 700,
      i < 61 ? 200 : 429,
      "burst",
    ]);
    const withTimeline: BenchRun = {
      ...committed,
      sections: committed.sections.map((s) =>
        s.id === "field" ? { ...s, data: { ...(s.data as object), timeline } } : s,
      ),
    };
    const field = benchCharts(withTimeline).charts.find((c) => c.file === "field-timeline.svg");
    expect(count(field?.svg ?? "", /<circle class="point"/g)).toBe(174);
    expect(chartsMarkdown(withTimeline)).toContain(
      "![The field run's requests over time](charts/field-timeline.svg)",
    );
  });

  it("has the committed SVG files as the committed run draws them (npm run bench rewrites them)", () => {
    for (const c of charts) {
      expect(wellFormed(c.svg), c.file).toBeUndefined();
      expect(readFileSync(join(repo, "bench/charts", c.file), "utf8"), c.file).toBe(c.svg);
    }
  });

  it("leaves a charts block in every results.md a run writes, for updateReadmes to fill", () => {
    expect(blockOf(renderMarkdown(committed), "charts")).toBe("");
  });
});
