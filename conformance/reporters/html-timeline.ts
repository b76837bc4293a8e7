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

/**
 * Consecutive requests of one phase, as [phase, from, to] in ms. The first phase starts with the
 * run, not with its first answer: an unreachable target's one request leaves after the setup, and
 * its band drawn from there would sit at the far right of a run that lasted no longer.
 */
function phaseBands(points: TimelinePoint[]): [string, number, number][] {
  const bands: [string, number, number][] = [];
  for (const p of points) {
    const phase = p.phase ?? "other";
    const last = bands.at(-1);
    if (last && last[0] === phase) last[2] = Math.max(last[2], p.at + p.ms);
    else bands.push([phase, bands.length === 0 ? 0 : p.at, p.at + p.ms]);
  }
  return bands;
}

/**
 * Whether the limiter counts a request: the contract counts neither OPTIONS (preflights) nor the
 * 429 answers, and a request that got no answer may never have reached it.
 */
export const counted = (p: TimelinePoint) =>
  p.status !== 0 && p.status !== 429 && !p.request?.startsWith("OPTIONS ");

/** Pixels a window label takes (11 px system-ui, generously). */
const windowLabelWidth = (label: string) => label.length * 6;

/**
 * A rate window's words: what the limiter counted beside what was sent, so that 82 sent with 22
 * preflights and 429s among them does not read as a limit of 60 broken. A spread run's limit holds
 * per source address, and the timeline does not say which address sent what. In a window too
 * narrow for all of it (a long run's), the counts alone: the limit is in the run's facts.
 */
export function windowLabel(
  points: TimelinePoint[],
  report: RunReport,
  room = Number.POSITIVE_INFINITY,
): string {
  const sent = `${points.filter(counted).length} counted of ${points.length} sent`;
  if (!report.rate) return sent;
  const per = report.mode === "spread" ? " per address" : "";
  const full = `${sent} · limit ${report.rate.limit} per ${report.rate.windowSeconds} s${per}`;
  return windowLabelWidth(full) + 6 <= room ? full : sent;
}

const KEY_PHASES = ["burst", "over-limit", "wait"];

/** Pixels a phase label takes (11 px system-ui, generously): enough to keep two apart. */
const labelWidth = (phase: string) => phase.length * 6.5 + 6;

/**
 * The phases' names above their bands, on two rows: a band wide enough is named on the first row;
 * then the narrow ones (a one-address burst lasts a second of a two-minute run) where a row has
 * room, so the burst is named beside the long wait instead of lost.
 */
function phaseLabels(bands: { phase: string; x: number; w: number }[]): string[] {
  const rows: [number, number][][] = [[], []];
  const free = (row: number, from: number, to: number) =>
    rows[row]?.every(([a, b]) => to + 4 <= a || from >= b + 4) ?? false;
  const out: string[] = [];
  // Of the narrow ones, the rate limit's phases first: what a reader of the timeline looks for.
  const rank = (phase: string) => {
    const i = KEY_PHASES.indexOf(phase);
    return i === -1 ? KEY_PHASES.length : i;
  };
  const narrow = bands.filter((b) => b.w <= 40).sort((a, b) => rank(a.phase) - rank(b.phase));
  for (const b of [...bands.filter((b) => b.w > 40), ...narrow]) {
    // Kept inside the picture: a phase at the very end is named leftwards of its band.
    const from = Math.min(b.x, WIDTH - 2 - labelWidth(b.phase));
    const to = from + labelWidth(b.phase);
    const row = [0, 1].find((r) => free(r, from, to));
    if (row === undefined) continue;
    rows[row]?.push([from, to]);
    out.push(`<text class="phase" x="${fixed(from + 2)}" y="${TOP - 8 - row * 12}">${text(b.phase)}</text>`);
  }
  return out;
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
  const bands = phaseBands(points);
  for (const [i, [phase, from, to]] of bands.entries()) {
    const w = Math.max(x(to) - x(from), 1.5);
    parts.push(
      `<rect class="band band-${i % 2}" x="${fixed(x(from))}" y="${TOP - 4}" width="${fixed(w)}" height="${bottom - TOP + 4}"><title>${text(phase)}: ${Math.round(from / 1000)}–${Math.round(to / 1000)} s</title></rect>`,
    );
  }
  parts.push(...phaseLabels(bands.map(([phase, from, to]) => ({ phase, x: x(from), w: x(to) - x(from) }))));
  const windowMs = (report.rate?.windowSeconds ?? 0) * 1000;
  if (windowMs > 0) {
    for (let start = 0; start < span; start += windowMs) {
      const label = windowLabel(
        points.filter((p) => p.at >= start && p.at < start + windowMs),
        report,
        x(start + windowMs) - x(start),
      );
      parts.push(
        `<line class="window" x1="${fixed(x(start))}" x2="${fixed(x(start))}" y1="${TOP - 4}" y2="${bottom + 4}"/>`,
        // The last window's words end at the picture's edge rather than past it.
        `<text class="window-label" x="${fixed(Math.min(x(start) + 3, WIDTH - 2 - windowLabelWidth(label)))}" y="${bottom + 18}">${text(label)}</text>`,
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
