/**
 * Regression tests of the HTML report's rows and timeline: operationIds broken inside ("getMet a"),
 * passed rows under their violation's name ("passed — Server error"), rate windows that counted
 * OPTIONS and 429s ("82 sent / 60 per 60 s"), an unreachable target's band at the far right.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult, RunReport, TimelinePoint } from "../runner/report.ts";
import { formatHtml } from "./html.ts";
import { STYLE } from "./html-assets.ts";
import { failingRun } from "./html-fixtures.ts";
import { timelineSvg, windowLabel } from "./html-timeline.ts";

const report = failingRun(40);

/** The row of the check table of one check. */
function row(html: string, name: string): string {
  const at = html.indexOf(`<code>${name}</code><br>`, html.indexOf('id="checks"'));
  return html.slice(html.lastIndexOf("<tr ", at), html.indexOf("</tr>", at));
}

describe("the check table", () => {
  it("keeps each operationId whole: one unbreakable span each, the list breaking only between them", () => {
    const page = formatHtml({
      ...report,
      checks: [{ ...(report.checks[0] as CheckResult), operation: "getLegacyRankFile" }],
    });
    expect(row(page, "response-schema")).toContain(
      '<td class="wide"><span class="op">getLegacyRankFile</span>, <span class="op">searchAlerts</span>, <span class="op">listAlerts</span></td>',
    );
    expect(STYLE).toContain(".op{white-space:nowrap}");
    // overflow-wrap:anywhere (the table's default) would break inside a nowrap span's word too.
    expect(STYLE).toMatch(/th,\.op\{overflow-wrap:normal\}/);
  });

  const check = (status: CheckResult["status"]): CheckResult => ({
    ...(report.checks[0] as CheckResult),
    name: "no-server-errors",
    title: "Server error",
    verifies: "No request (valid, invalid or fuzzed query strings) is answered 5xx.",
    status,
    violations: [],
  });
  const rows: [string, { given: CheckResult["status"]; want: string; not?: string }][] = [
    ["a failed check: the violation it found", { given: "fail", want: "Server error" }],
    ["a passed check: what it verifies", { given: "pass", want: "is answered 5xx.", not: "Server error" }],
    [
      "a check not exercised: what it verifies",
      { given: "not-exercised", want: "is answered 5xx.", not: "Server error" },
    ],
    [
      "a check not selected: what it verifies",
      { given: "skipped", want: "is answered 5xx.", not: "Server error" },
    ],
  ];
  it.each(rows)("says under its name %s", (_, { given, want, not }) => {
    const line = row(formatHtml({ ...report, checks: [check(given)] }), "no-server-errors");
    expect(line).toContain(want);
    if (not) expect(line).not.toContain(not);
  });
});

describe("the timeline's rate windows", () => {
  const points = (n: number, over: Partial<TimelinePoint>): TimelinePoint[] =>
    Array.from({ length: n }, (_, i) => ({
      at: i * 100,
      ms: 5,
      status: 200,
      request: "GET /api/v1/meta",
      ...over,
    }));
  const window = [
    ...points(60, {}),
    ...points(12, { status: 204, request: "OPTIONS /api/v1/meta" }),
    ...points(10, { status: 429 }),
  ];
  const labels: [string, { given: [TimelinePoint[], Partial<RunReport>, number?]; want: string }][] = [
    [
      "counts what the limiter counts (no OPTIONS, no 429), beside what was sent",
      { given: [window, {}], want: "60 counted of 82 sent · limit 60 per 60 s" },
    ],
    [
      "a spread run's limit holds per address",
      { given: [window, { mode: "spread" }], want: "60 counted of 82 sent · limit 60 per 60 s per address" },
    ],
    [
      "a window too narrow for the limit's words keeps the counts",
      { given: [window, {}, 200], want: "60 counted of 82 sent" },
    ],
    [
      "a request with no answer is not counted",
      {
        given: [points(3, { status: 0, failure: "timeout" }), {}],
        want: "0 counted of 3 sent · limit 60 per 60 s",
      },
    ],
  ];
  it.each(labels)("%s", (_, { given: [inWindow, over, room], want }) => {
    expect(windowLabel(inWindow, { ...report, ...over }, room)).toBe(want);
  });

  it("is drawn so on the page", () => {
    const page = formatHtml({ ...report, timeline: window, durationMs: 10_000 });
    expect(page).toContain(">60 counted of 82 sent · limit 60 per 60 s</text>");
  });
});

describe("the timeline's phases", () => {
  it("starts the first band with the run: an unreachable target's one request is no band at the far right", () => {
    const unreachable: RunReport = {
      ...report,
      durationMs: 382,
      timeline: [
        {
          at: 368,
          ms: 9,
          status: 0,
          phase: "discovery",
          failure: "unreachable",
          request: "GET /api/v1/meta",
        },
      ],
    };
    const svg = timelineSvg(unreachable) ?? "";
    // The plot starts at x = 64 (LEFT).
    expect(svg).toMatch(/<rect class="band band-0" x="64.0" y="30" width="(9\d\d|8[5-9]\d)\.\d"/);
  });

  it("leaves the later bands where their requests went", () => {
    const svg = timelineSvg(report) ?? "";
    const xs = [...svg.matchAll(/<rect class="band[^"]*" x="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs[0]).toBe(64);
    expect(xs.slice(1).every((x) => x > 64)).toBe(true);
  });
});
