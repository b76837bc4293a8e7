/**
 * Small SVG charts for bench/results.md, drawn from numbers (never by hand): a line chart, a
 * grouped bar chart and a timeline of requests. Each is one standalone SVG document (GitHub shows
 * it as an image): fixed size, its own background, fonts of the system, every text escaped.
 */

export const WIDTH = 880;
export const HEIGHT = 320;
const M = { left: 64, right: 250, top: 40, bottom: 48 };
/** Characters of a legend entry shown (the whole name is its tooltip). */
const LEGEND_CHARS = 36;
const PLOT_W = WIDTH - M.left - M.right;
const PLOT_H = HEIGHT - M.top - M.bottom;

/** Colours told apart by most colour-blind readers (Okabe–Ito). */
export const PALETTE = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#D55E00",
  "#56B4E9",
  "#F0E442",
  "#000000",
];

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for XML content and attribute values. */
export const xml = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "0");

export interface Series {
  name: string;
  points: [number, number][];
}

/** A line a chart draws across its plot: the target a figure is judged against. */
export interface Reference {
  y: number;
  label: string;
}

function frame(title: string, body: string[], description: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="11">`,
    `<title>${xml(title)}</title>`,
    `<desc>${xml(description)}</desc>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="600" fill="#1b1f24">${xml(title)}</text>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}

/** Round numbers for an axis from 0 (or lo) to at least hi. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / count;
  const step =
    [1, 2, 2.5, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = Math.floor(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push(Number(t.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < hi) ticks.push(Number(((ticks.at(-1) ?? 0) + step).toPrecision(12)));
  return ticks;
}

const label = (n: number) =>
  Math.abs(n) >= 1000 ? n.toLocaleString("en-US") : String(Number(n.toPrecision(3)));

function yAxis(ticks: number[], y: (v: number) => number, name: string): string[] {
  const out = ticks.map(
    (t) =>
      `<line x1="${M.left}" x2="${M.left + PLOT_W}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#d0d7de"/><text x="${M.left - 6}" y="${f(y(t) + 4)}" text-anchor="end" fill="#57606a">${xml(label(t))}</text>`,
  );
  out.push(
    `<text transform="translate(14 ${M.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle" fill="#57606a">${xml(name)}</text>`,
  );
  return out;
}

function legend(names: string[], dashed = false): string[] {
  return names.map((n, i) => {
    const y = M.top + 8 + i * 18;
    const x = M.left + PLOT_W + 16;
    const mark = dashed
      ? `<line x1="${x}" x2="${x + 18}" y1="${y}" y2="${y}" stroke="${PALETTE[i % PALETTE.length]}" stroke-width="2"/>`
      : `<rect x="${x}" y="${y - 6}" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/>`;
    const shown = n.length > LEGEND_CHARS ? `${n.slice(0, LEGEND_CHARS - 1)}…` : n;
    return `${mark}<text x="${x + 24}" y="${y + 4}" fill="#1b1f24">${xml(shown)}<title>${xml(n)}</title></text>`;
  });
}

function referenceLine(ref: Reference | undefined, y: (v: number) => number): string[] {
  if (!ref) return [];
  return [
    `<line class="reference" x1="${M.left}" x2="${M.left + PLOT_W}" y1="${f(y(ref.y))}" y2="${f(y(ref.y))}" stroke="#cf222e" stroke-dasharray="6 4"/>`,
    // At the left, haloed: readable over the bars and lines it crosses.
    `<text x="${M.left + 4}" y="${f(y(ref.y) - 5)}" fill="#cf222e" stroke="#ffffff" stroke-width="3" paint-order="stroke">${xml(ref.label)}</text>`,
  ];
}

export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** A logarithmic x axis (data sizes that grow tenfold). */
  logX?: boolean;
  reference?: Reference;
}

/** Lines through each series' points, one dot (class "point") per point. */
export function lineChartSvg(c: LineChart): string {
  const xs = c.series.flatMap((s) => s.points.map(([x]) => x));
  const ys = c.series.flatMap((s) => s.points.map(([, y]) => y));
  const tx = (v: number) => (c.logX ? Math.log10(Math.max(v, 1e-9)) : v);
  const [x0, x1] = [Math.min(...xs.map(tx)), Math.max(...xs.map(tx))];
  const pad = x1 === x0 ? 1 : (x1 - x0) * 0.06;
  const x = (v: number) => M.left + ((tx(v) - (x0 - pad)) / (x1 - x0 + 2 * pad)) * PLOT_W;
  const ticks = niceTicks(0, Math.max(...ys, c.reference?.y ?? 0, 1e-9));
  const top = ticks.at(-1) ?? 1;
  const y = (v: number) => M.top + PLOT_H - (v / top) * PLOT_H;
  const body = yAxis(ticks, y, c.yLabel);
  for (const v of [...new Set(xs)].sort((a, b) => a - b))
    body.push(
      `<text x="${f(x(v))}" y="${M.top + PLOT_H + 16}" text-anchor="middle" fill="#57606a">${xml(label(v))}</text>`,
    );
  body.push(
    `<text x="${M.left + PLOT_W / 2}" y="${HEIGHT - 10}" text-anchor="middle" fill="#57606a">${xml(c.xLabel)}</text>`,
  );
  body.push(...referenceLine(c.reference, y));
  for (const [i, s] of c.series.entries()) {
    const colour = PALETTE[i % PALETTE.length];
    const pts = [...s.points].sort((a, b) => a[0] - b[0]);
    body.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts.map(([px, py]) => `${f(x(px))},${f(y(py))}`).join(" ")}"/>`,
    );
    for (const [px, py] of pts)
      body.push(
        `<circle class="point" cx="${f(x(px))}" cy="${f(y(py))}" r="3.5" fill="${colour}"><title>${xml(`${s.name}: ${label(py)} at ${label(px)}`)}</title></circle>`,
      );
  }
  body.push(
    ...legend(
      c.series.map((s) => s.name),
      true,
    ),
  );
  return frame(c.title, body, `${c.yLabel} against ${c.xLabel}, ${c.series.length} series`);
}

export interface BarChart {
  title: string;
  yLabel: string;
  /** The bars' names, in the legend's order. */
  names: string[];
  /** One group a category; a value per name (undefined: not measured there). */
  groups: { label: string; values: (number | undefined)[] }[];
  reference?: Reference;
}

/** Grouped bars (class "bar"), one a name per group, with their values written above. */
export function barChartSvg(c: BarChart): string {
  const values = c.groups.flatMap((g) => g.values.filter((v): v is number => v !== undefined));
  const ticks = niceTicks(0, Math.max(...values, c.reference?.y ?? 0, 1e-9));
  const top = ticks.at(-1) ?? 1;
  const y = (v: number) => M.top + PLOT_H - (v / top) * PLOT_H;
  const body = yAxis(ticks, y, c.yLabel);
  const groupW = PLOT_W / Math.max(c.groups.length, 1);
  const barW = (groupW * 0.8) / Math.max(c.names.length, 1);
  for (const [gi, g] of c.groups.entries()) {
    const gx = M.left + gi * groupW + groupW * 0.1;
    body.push(
      `<text x="${f(gx + groupW * 0.4)}" y="${M.top + PLOT_H + 16}" text-anchor="middle" fill="#57606a">${xml(g.label)}</text>`,
    );
    for (const [i, v] of g.values.entries()) {
      if (v === undefined) continue;
      const bx = gx + i * barW;
      body.push(
        `<rect class="bar" x="${f(bx)}" y="${f(y(v))}" width="${f(barW - 2)}" height="${f(y(0) - y(v))}" fill="${PALETTE[i % PALETTE.length]}"><title>${xml(`${g.label}, ${c.names[i] ?? ""}: ${label(v)}`)}</title></rect>`,
        `<text x="${f(bx + barW / 2 - 1)}" y="${f(y(v) - 3)}" text-anchor="middle" font-size="9" fill="#1b1f24">${xml(label(v))}</text>`,
      );
    }
  }
  body.push(...referenceLine(c.reference, y));
  body.push(...legend(c.names));
  return frame(c.title, body, `${c.yLabel} for ${c.groups.length} groups of ${c.names.length} bars`);
}

export interface TimelineChart {
  title: string;
  /** Milliseconds from the start, and the answer's status (0: no whole answer). */
  points: { at: number; status: number; phase?: string }[];
  durationMs: number;
}

const LANES = [
  ["2xx", (s: number) => s >= 200 && s < 300],
  ["4xx", (s: number) => s >= 400 && s < 500 && s !== 429],
  ["429", (s: number) => s === 429],
  ["5xx", (s: number) => s >= 500],
  ["other", (s: number) => s === 0 || (s >= 100 && s < 200) || (s >= 300 && s < 400)],
] as const;

/** One dot (class "point") a request, by when it left and its status class; the phases as bands. */
export function timelineChartSvg(c: TimelineChart): string {
  const span = Math.max(c.durationMs, ...c.points.map((p) => p.at), 1);
  const x = (ms: number) => M.left + (ms / span) * PLOT_W;
  const laneH = PLOT_H / LANES.length;
  const body: string[] = [];
  const bands: [string, number, number][] = [];
  for (const p of c.points) {
    const last = bands.at(-1);
    if (last && last[0] === (p.phase ?? "")) last[2] = p.at;
    else bands.push([p.phase ?? "", p.at, p.at]);
  }
  for (const [i, [phase, from, to]] of bands.entries()) {
    body.push(
      `<rect x="${f(x(from))}" y="${M.top}" width="${f(Math.max(x(to) - x(from), 1))}" height="${PLOT_H}" fill="${i % 2 ? "#ddf4ff" : "#f6f8fa"}"><title>${xml(`${phase}: ${(from / 1000).toFixed(0)}–${(to / 1000).toFixed(0)} s`)}</title></rect>`,
    );
    if (x(to) - x(from) > 36)
      body.push(`<text x="${f(x(from) + 2)}" y="${M.top - 4}" fill="#57606a">${xml(phase)}</text>`);
  }
  for (const [i, [name]] of LANES.entries())
    body.push(
      `<text x="${M.left - 6}" y="${f(M.top + (i + 0.5) * laneH + 4)}" text-anchor="end" fill="#57606a">${name}</text>`,
    );
  for (const t of niceTicks(0, span / 1000, 8).filter((t) => t * 1000 <= span))
    body.push(
      `<text x="${f(x(t * 1000))}" y="${M.top + PLOT_H + 16}" text-anchor="middle" fill="#57606a">${t} s</text>`,
    );
  for (const [i, p] of c.points.entries()) {
    const lane = LANES.findIndex(([, is]) => is(p.status));
    const cy = M.top + (lane + 0.5) * laneH + ((i % 5) - 2) * 3;
    body.push(
      `<circle class="point" cx="${f(x(p.at))}" cy="${f(cy)}" r="2.5" fill="${PALETTE[lane % PALETTE.length]}"><title>${xml(`${(p.at / 1000).toFixed(1)} s: ${p.status} (${p.phase ?? ""})`)}</title></circle>`,
    );
  }
  body.push(
    `<text x="${M.left + PLOT_W / 2}" y="${HEIGHT - 10}" text-anchor="middle" fill="#57606a">seconds from the start; bands are the run's phases</text>`,
  );
  return frame(
    c.title,
    body,
    `${c.points.length} requests over ${(span / 1000).toFixed(0)} s by status class`,
  );
}
