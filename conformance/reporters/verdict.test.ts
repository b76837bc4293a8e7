/**
 * Every format × every verdict: the headline a CI user reads never says passed for a run that
 * failed, was cut short or judged nothing; an incomplete run's headline gives its reason first; a
 * run that judged nothing lists no finding. Regression tests of a --max-time run that showed a
 * green "Passed" everywhere, and of a "not this API" report listing 25 findings.
 */
import { describe, expect, it } from "vitest";
import { type RunReport, verdictCode } from "../runner/report.ts";
import { formatConsole } from "./console.ts";
import { formatHtml } from "./html.ts";
import { formatJson } from "./json.ts";
import { formatJunit } from "./junit.ts";
import { formatMarkdown } from "./markdown.ts";
import { matrixHeadline, matrixOf } from "./matrix.ts";
import { formatMatrixJunit } from "./matrix-formats.ts";
import { formatMatrixHtml } from "./matrix-html.ts";
import { formatMatrixMarkdown } from "./matrix-markdown.ts";
import { asShown, headline, verdictOfReport } from "./verdict.ts";
import {
  beforeVerdicts,
  cutByMaxTime,
  failed,
  MAX_TIME,
  NOT_THIS_API,
  notThisApi,
  passed,
  stopped,
  WINDOW_USED,
  windowUsed,
} from "./verdict-fixtures.ts";

/** What a reader of one format sees first, whether it looks green, the findings it lists, and all of it. */
interface Shown {
  headline: string;
  green: boolean;
  /** Findings listed (undefined for JSON: data, not a listing). */
  findings?: number;
  text: string;
}

const count = (s: string, re: RegExp) => s.match(re)?.length ?? 0;
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? "";
/** What a JUnit viewer shows: red when any case failed or erred, else green (skips included). */
const junitGreen = (xml: string) => /<testsuites [^>]*failures="0"[^>]*errors="0"/.test(xml);
const junitVerdict = (xml: string) => /<property name="verdict" value="([^"]+)"\/>/.exec(xml)?.[1] ?? "";
/** <failure> of a check's finding or a cause (not "not exercised", not the verdict's own case). */
const junitFindings = (xml: string) =>
  count(xml, /<failure [^>]*type="(?!incomplete"|not-exercised")[^"]*"/g);

const FORMATS: [string, (r: RunReport) => Shown][] = [
  [
    "console",
    (r) => {
      const text = formatConsole(r);
      const headline = text.split("\n").findLast((l) => l.startsWith("verdict: ")) ?? "";
      return { headline, green: /^verdict: passed/.test(headline), findings: count(text, /^✗ /gm), text };
    },
  ],
  [
    "markdown",
    (r) => {
      const text = formatMarkdown(r);
      const headline = text.split("\n")[0] ?? "";
      return {
        headline,
        green: headline.includes("✅"),
        findings: count(text, /^### (Failures|Root causes)$/gm),
        text,
      };
    },
  ],
  [
    "html",
    (r) => {
      const text = formatHtml(r);
      return {
        headline: h1(text),
        green: text.includes('class="verdict passed"'),
        findings: count(text, /<details class="finding"/g),
        text,
      };
    },
  ],
  [
    "junit",
    (r) => {
      const text = formatJunit(r);
      return { headline: junitVerdict(text), green: junitGreen(text), findings: junitFindings(text), text };
    },
  ],
  [
    "json",
    (r) => {
      const text = formatJson(r);
      const json = JSON.parse(text) as RunReport;
      return { headline: json.verdict, green: json.verdict === "passed" || json.passed, text };
    },
  ],
  [
    "matrix html",
    (r) => {
      const text = formatMatrixHtml([r]);
      return {
        headline: h1(text),
        green: /<section class="verdict passed"[^>]*><h1>/.test(text),
        findings: count(text, /<details class="finding"/g) + count(text, /finding(s)?<\/a><\/td>/g),
        text,
      };
    },
  ],
  [
    "matrix markdown",
    (r) => {
      const text = formatMatrixMarkdown([r]);
      const headline = text.split("\n")[0] ?? "";
      return {
        headline,
        green: headline.includes("✅"),
        findings: count(text, /^#### (Failures|Root causes)$/gm) + count(text, / \[\d+ findings?\]/g),
        text,
      };
    },
  ],
  [
    "matrix junit",
    (r) => {
      const text = formatMatrixJunit([r]);
      return { headline: junitVerdict(text), green: junitGreen(text), findings: junitFindings(text), text };
    },
  ],
];

interface Want {
  verdict: RunReport["verdict"];
  /** The verdict's word in the headline. */
  word: RegExp;
  /** What the report must say, in every format but JSON (its reason, its error). */
  says: string[];
}

const INCOMPLETE = /incomplete/i;
const VERDICTS: [string, { given: RunReport; want: Want }][] = [
  ["passed", { given: passed, want: { verdict: "passed", word: /passed/i, says: [] } }],
  ["failed", { given: failed, want: { verdict: "failed", word: /failed/i, says: [] } }],
  [
    "incomplete: --max-time",
    { given: cutByMaxTime, want: { verdict: "incomplete", word: INCOMPLETE, says: [MAX_TIME] } },
  ],
  [
    "incomplete: the burst's window was used",
    { given: windowUsed, want: { verdict: "incomplete", word: INCOMPLETE, says: [WINDOW_USED] } },
  ],
  [
    "incomplete: stopped by a signal",
    {
      given: stopped,
      want: { verdict: "incomplete", word: INCOMPLETE, says: ["the run was stopped (SIGINT)"] },
    },
  ],
  [
    "not judged: not this API",
    {
      given: notThisApi,
      want: { verdict: "not-judged", word: /could not judge|not.judged/i, says: [NOT_THIS_API] },
    },
  ],
  [
    "a JSON report before verdicts, cut by --max-time",
    { given: beforeVerdicts(cutByMaxTime), want: { verdict: "incomplete", word: INCOMPLETE, says: [] } },
  ],
  [
    "a JSON report before verdicts, passed",
    { given: beforeVerdicts(passed), want: { verdict: "passed", word: /passed/i, says: [] } },
  ],
];

describe("every format states the verdict", () => {
  describe.each(VERDICTS)("%s", (_, { given, want }) => {
    it.each(FORMATS)("%s", (format, show) => {
      const shown = show(given);
      expect(shown.green, shown.headline).toBe(want.verdict === "passed");
      if (format === "json" || format.endsWith("junit")) expect(shown.headline).toBe(want.verdict);
      else expect(shown.headline).toMatch(want.word);
      if (want.verdict !== "passed") expect(shown.headline).not.toMatch(/\bpassed\b/i);
      if (format !== "json") for (const words of want.says) expect(shown.text).toContain(words);
      if (want.verdict === "not-judged" && shown.findings !== undefined) expect(shown.findings).toBe(0);
    });
  });

  it.each(VERDICTS.filter(([, { want }]) => want.verdict === "incomplete"))(
    "%s: the JSON carries the reasons, the run's own first",
    (_, { given }) => {
      const json = JSON.parse(formatJson(given)) as RunReport;
      expect(json.passed).toBe(false);
      expect(json.incomplete?.length).toBeGreaterThan(0);
      expect(json.incomplete?.[0]).toBe(headline(given).reasons[0]);
    },
  );

  it("a not-judged run's violations stay in its JSON, for whoever reads the data", () => {
    const json = JSON.parse(formatJson(notThisApi)) as RunReport;
    expect(json.checks.flatMap((c) => c.violations)).toHaveLength(30 + 1 + 1);
  });
});

describe("the headline of an incomplete run", () => {
  const cases: [string, { given: RunReport; want: string }][] = [
    [
      "the run's own reason first, then how many checks it left",
      { given: cutByMaxTime, want: `incomplete: ${MAX_TIME}; 2 checks not judged` },
    ],
    [
      "with no reason of its own, its check's",
      { given: windowUsed, want: `incomplete: rate-limit: ${WINDOW_USED}; 1 check not judged` },
    ],
    [
      "a stop by a signal",
      { given: stopped, want: "incomplete: the run was stopped (SIGINT); 2 checks not judged" },
    ],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    expect(headline(given).words).toBe(want);
  });

  it("lists its reasons right under the headline, the run's first (markdown, HTML)", () => {
    const md = formatMarkdown(cutByMaxTime).split("\n");
    expect(md.slice(4, 7)).toEqual(["### Not judged", "", `- ${MAX_TIME}`]);
    const html = formatHtml(cutByMaxTime);
    expect(html.indexOf(`<li>${MAX_TIME}</li>`)).toBeLessThan(html.indexOf('id="facts"'));
  });

  it("is a failing JUnit case of its own, its message the headline and its body every reason", () => {
    const xml = formatJunit(cutByMaxTime);
    expect(xml).toContain(
      `<testcase classname="conformance" name="verdict">\n      <failure message="verdict: incomplete: ${MAX_TIME}; 2 checks not judged" type="incomplete">${MAX_TIME}\n`,
    );
  });
});

describe("reports written before verdicts existed", () => {
  const cases: [string, { given: RunReport; want: { verdict: RunReport["verdict"]; code: number } }][] = [
    ["all passed", { given: beforeVerdicts(passed), want: { verdict: "passed", code: 0 } }],
    ["a check failed", { given: beforeVerdicts(failed), want: { verdict: "failed", code: 1 } }],
    [
      "checks not exercised",
      { given: beforeVerdicts(cutByMaxTime), want: { verdict: "incomplete", code: 3 } },
    ],
    [
      "stopped before judging",
      { given: beforeVerdicts(notThisApi), want: { verdict: "not-judged", code: 2 } },
    ],
    [
      "not exercised under --require-evidence",
      {
        given: beforeVerdicts({ ...cutByMaxTime, requireEvidence: true }),
        want: { verdict: "failed", code: 1 },
      },
    ],
  ];
  it.each(cases)("%s: a verdict derived from its checks, and its exit code", (_, { given, want }) => {
    expect(verdictOfReport(given)).toBe(want.verdict);
    expect(verdictCode(verdictOfReport(given))).toBe(want.code);
    expect((JSON.parse(formatJson(given)) as RunReport).verdict).toBe(want.verdict);
  });

  it("an incomplete one gets its reasons too", () => {
    expect(asShown(beforeVerdicts(cutByMaxTime)).incomplete).toEqual(
      (cutByMaxTime.incomplete ?? []).slice(1),
    );
  });
});

describe("the matrix's headline", () => {
  const cases: [string, { given: RunReport[]; want: string }][] = [
    ["all passed", { given: [passed, passed], want: "all 2 targets passed" }],
    ["one incomplete is no pass", { given: [passed, cutByMaxTime], want: "1 of 2 targets incomplete" }],
    [
      "the worst first",
      {
        given: [cutByMaxTime, failed, notThisApi, passed],
        want: "1 of 4 targets not judged · 1 failed · 1 incomplete",
      },
    ],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    expect(matrixHeadline(matrixOf(given).targets).words).toBe(want);
  });
});
