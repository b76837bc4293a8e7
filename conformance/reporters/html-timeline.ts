/**
 * The run's timeline as inline SVG: one dot per request, placed by when it left and by what came
 * back (2xx, 3xx, 4xx, the rate limit's 429, 5xx, no whole answer), the run's phases as bands
 * (discovery, burst, the Retry-After wait, plan, exploration) and the rate windows as lines with
 * the requests sent in each. Drawn from `RunReport.timeline`: numbers only, nothing of a body. Each
 * dot links to its exchange (html-plan.ts says where).
 */
import type { RunReport, TimelinePoint } from "../runner/report.ts";
import { text } from "./html-escape.ts";

export const LANES = ["2xx", "3xx", "4xx", "429", "5xx", "failure"] as const;
export type Lane = (typeof LANES)[number];

/** Dots drawn at most: past this the report says how many were left out (a spread run sends 4000). */
export const MAX_POINTS = 5000;

export function laneOf(p: Pick<TimelinePoint, "status">): Lane {
  if (p.status === 0) return "failure";
  if (p.status === 429) return "429";
  if (p.status >= 500) return "5xx";
  if (p.status >= 400) return "4xx";
  if (p.status >= 300) return "3xx";
  return "2xx";
}

const WIDTH = 960;
const LEFT = 64;
const TOP = 34;
const LANE_HEIGHT = 26;
const PLOT = WIDTH - LEFT - 12;

const fixed = (n: number) => n.toFixed(1);

/** Consecutive requests of one phase, as [phase, from, to] in ms. */
function phaseBands(points: TimelinePoint[]): [string, number, number][] {
  const bands: [string, number, number][] = [];
  for (const p of points) {
    const phase = p.phase ?? "other";
    const last = bands.at(-1);
    if (last && last[0] === phase) last[2] = Math.max(last[2], p.at + p.ms);
    else bands.push([phase, p.at, p.at + p.ms]);
  }
  return bands;
}

/** The SVG, or undefined when the report has no timeline (a passive run, an older JSON report). */
export function timelineSvg(
  report: RunReport,
  targets: Map<number, string> = new Map(),
  prefix = "",
): string | undefined {
  const all = report.timeline ?? [];
  if (all.length === 0) return undefined;
  const points = all.slice(0, MAX_POINTS);
  const span = Math.max(report.durationMs, ...points.map((p) => p.at + p.ms), 1);
  const x = (ms: number) => LEFT + (ms / span) * PLOT;
  const height = TOP + LANES.length * LANE_HEIGHT + 24;
  const bottom = TOP + LANES.length * LANE_HEIGHT;
  const parts: string[] = [];
  parts.push(
    `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${prefix}timeline-title">`,
    `<title id="${prefix}timeline-title">${points.length} requests over ${Math.round(span / 1000)} s by status class</title>`,
  );
  for (const [i, [phase, from, to]] of phaseBands(points).entries()) {
    const w = Math.max(x(to) - x(from), 1.5);
    parts.push(
      `<rect class="band band-${i % 2}" x="${fixed(x(from))}" y="${TOP - 4}" width="${fixed(w)}" height="${bottom - TOP + 4}"><title>${text(phase)}: ${Math.round(from / 1000)}–${Math.round(to / 1000)} s</title></rect>`,
    );
    if (w > 40)
      parts.push(`<text class="phase" x="${fixed(x(from) + 2)}" y="${TOP - 8}">${text(phase)}</text>`);
  }
  const windowMs = (report.rate?.windowSeconds ?? 0) * 1000;
  if (windowMs > 0) {
    for (let start = 0; start < span; start += windowMs) {
      const sent = points.filter((p) => p.at >= start && p.at < start + windowMs).length;
      parts.push(
        `<line class="window" x1="${fixed(x(start))}" x2="${fixed(x(start))}" y1="${TOP - 4}" y2="${bottom + 4}"/>`,
        `<text class="window-label" x="${fixed(x(start) + 3)}" y="${bottom + 18}">${sent} sent${report.rate ? ` / ${report.rate.limit} per ${report.rate.windowSeconds} s` : ""}</text>`,
      );
    }
  }
  for (const [i, lane] of LANES.entries()) {
    const y = TOP + i * LANE_HEIGHT + LANE_HEIGHT / 2;
    parts.push(
      `<text class="lane" x="${LEFT - 8}" y="${y + 4}" text-anchor="end">${lane}</text>`,
      `<line class="axis" x1="${LEFT}" x2="${WIDTH - 12}" y1="${y}" y2="${y}"/>`,
    );
  }
  for (const [i, p] of points.entries()) {
    const lane = laneOf(p);
    // A little vertical spread so that requests sent together stay countable.
    const y = TOP + LANES.indexOf(lane) * LANE_HEIGHT + LANE_HEIGHT / 2 + ((i % 5) - 2) * 3;
    const what = `${(p.at / 1000).toFixed(1)} s: ${p.operation ?? "no operation"} → ${p.failure ?? p.status} (${p.phase ?? "other"}, ${p.ms} ms)`;
    const dot = `<circle class="dot l-${lane}" cx="${fixed(x(p.at))}" cy="${y}" r="3"><title>${text(what, 200)}</title></circle>`;
    // A link: a click (or Enter) opens the exchange's finding, else its row of the plan.
    const target = targets.get(i);
    parts.push(target ? `<a href="#${target}">${dot}</a>` : dot);
  }
  parts.push("</svg>");
  if (all.length > points.length)
    parts.push(`<p class="muted">${all.length - points.length} later requests not drawn.</p>`);
  return parts.join("");
}
