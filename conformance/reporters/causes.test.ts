/** Every reporter puts the root causes first, and ties each finding to the cause that explains it. */
import { describe, expect, it } from "vitest";
import type { RunReport } from "../runner/report.ts";
import type { Violation } from "../types.ts";
import { formatConsole } from "./console.ts";
import { formatHtml } from "./html.ts";
import { formatJunit } from "./junit.ts";
import { formatMarkdown } from "./markdown.ts";

const TITLE =
  "A limiter in front of the API answers the rate limit, not the API's own: its 429s are text/html, no CORS, no RateLimit-*, no Retry-After, Server: nginx";

/** A title inside Markdown emphasis: its own * and _ escaped, so that they do not end it early. */
const emphasised = (s: string) => s.replace(/[*_]/g, "\\$&");

const row = (check: string, title: string, cause?: string): Violation => ({
  check,
  code: check,
  title,
  severity: "high",
  operation: "getMeta",
  received: "r",
  documented: "d",
  request: "curl -i 'http://t/api/v1/meta'",
  seed: 1,
  replay: `dealkit conformance --seed 1 --only ${check}`,
  ...(cause ? { cause } : {}),
});

const failing = (name: string, violations: Violation[]) => ({
  name,
  title: name,
  verifies: "v",
  source: "s",
  severity: "high" as const,
  status: "fail" as const,
  cases: 1,
  informative: 1,
  planned: 1,
  sent: 1,
  violations,
});

const report: RunReport = {
  seed: 1,
  baseUrl: "http://t",
  mode: "one-address",
  startedAt: "2026-11-26T00:00:00.000Z",
  durationMs: 1000,
  requests: 10,
  unexpected429: 0,
  requireEvidence: false,
  verdict: "failed",
  passed: false,
  notes: [],
  causes: [
    {
      id: "limiter-in-front",
      severity: "high",
      title: TITLE,
      evidence: ["11 answers 429: text/html, no CORS"],
      checks: ["content-type"],
      operations: ["getMeta"],
      count: 1,
    },
  ],
  checks: [
    failing("content-type", [
      row("content-type", "getMeta 429 has an undocumented content type", "limiter-in-front"),
    ]),
    failing("rule:rank-order", [row("rule:rank-order", "entries out of order")]),
  ],
};

describe("root causes in the reports", () => {
  it("console: the cause headline comes first, then the table, then the rows under their cause, then the rest", () => {
    const text = formatConsole(report);
    const lines = text.split("\n");
    expect(lines.slice(1, 3)).toEqual(["Root causes (1 finding explained):", `✗ [high] ${TITLE}`]);
    const at = (s: string) => text.indexOf(s);
    expect(at("check ")).toBeGreaterThan(at(TITLE));
    expect(at(`── ${TITLE}`)).toBeLessThan(at("✗ content-type"));
    expect(at("── other findings")).toBeLessThan(at("✗ rule:rank-order"));
    expect(at("✗ content-type")).toBeLessThan(at("── other findings"));
  });

  it("markdown: a Root causes section before the failures, each failure naming its cause", () => {
    const md = formatMarkdown(report);
    expect(md.indexOf("### Root causes")).toBeLessThan(md.indexOf("### Failures"));
    expect(md).toContain(
      `- **[high] ${emphasised(TITLE)}**: explains 1 finding of \`content-type\` (getMeta)`,
    );
    expect(md).toMatch(
      /\| `content-type` \| getMeta \| getMeta 429 has an undocumented content type \| root cause 1 \|/,
    );
    expect(md).toMatch(/\| `rule:rank-order` \| getMeta \| entries out of order \| {2}\|/);
  });

  it("JUnit: a failing case per cause before the checks, and the check's message names its cause", () => {
    const xml = formatJunit(report);
    expect(xml.indexOf('name="cause: limiter-in-front"')).toBeLessThan(xml.indexOf('name="content-type"'));
    expect(xml).toContain('tests="3" failures="3"');
    expect(xml).toContain(`message="getMeta 429 has an undocumented content type (root cause: ${TITLE})"`);
  });
});

const UNGUARDED =
  "Likely a shared cache keyed on the URL, or the API not checking the key: getMyAlerts served without the owner's key (the answers do not tell which)";
const UNGUARDED_CONFIRM =
  "ask the same URL without the key 2 s after the owner's request: a cache repeats the owner's Date";
const PREFLIGHT = "Likely, the limiter counts CORS preflights (OPTIONS), which the contract leaves uncounted";
const PREFLIGHT_CONFIRM = "send 60 GETs without preflights from a fresh address: all are served";

/** A hypothesis first (3 findings), then a limiter in front (2 findings) with a likely follower (1 of the 2). */
const withFollower: RunReport = {
  ...report,
  causes: [
    {
      id: "credentials-unguarded",
      severity: "critical",
      title: UNGUARDED,
      evidence: ["getMyAlerts, no key: 200, a body like the owner's"],
      likely: true,
      confirm: UNGUARDED_CONFIRM,
      checks: ["credentials-not-cached", "rule:my-alerts-credentials"],
      operations: ["getMyAlerts"],
      count: 3,
    },
    {
      id: "limiter-in-front",
      severity: "high",
      title: TITLE,
      evidence: ["11 answers 429: text/html, no CORS"],
      follows: [
        {
          id: "limiter-counts-preflight",
          severity: "medium",
          title: PREFLIGHT,
          evidence: ["refused after 58 GETs and their 2 preflights"],
          likely: true,
          confirm: PREFLIGHT_CONFIRM,
          checks: ["rate-limit"],
          operations: ["getMeta"],
          count: 1,
        },
      ],
      checks: ["content-type", "rate-limit"],
      operations: ["getMeta"],
      count: 2,
    },
  ],
  checks: [
    failing("credentials-not-cached", [
      row("credentials-not-cached", "getMyAlerts served without the key", "credentials-unguarded"),
      row("credentials-not-cached", "getMyAlerts served with a wrong key", "credentials-unguarded"),
    ]),
    failing("rule:my-alerts-credentials", [
      row("rule:my-alerts-credentials", "200 without credentials", "credentials-unguarded"),
    ]),
    failing("content-type", [
      row("content-type", "getMeta 429 has an undocumented content type", "limiter-in-front"),
    ]),
    // The follower's finding carries its parent's id.
    failing("rate-limit", [row("rate-limit", "refused after 58 requests", "limiter-in-front")]),
  ],
};

/** Text as the HTML report escapes it (the titles hold apostrophes). */
const html = (s: string) => s.replaceAll("'", "&#39;");

/** Where each fragment first occurs after the previous one: -1 once one is missing or out of order. */
function inOrder(text: string, fragments: string[]): number[] {
  let from = 0;
  return fragments.map((f) => {
    const at = from < 0 ? -1 : text.indexOf(f, from);
    from = at < 0 ? -1 : at + f.length;
    return at;
  });
}

describe("a likely cause and what follows from a cause, in every report", () => {
  it.each<[string, { render: (r: RunReport) => string; want: string[]; never: string[] }]>([
    [
      "console: a hypothesis marked ? with what would confirm it; the follower indented under its parent",
      {
        render: formatConsole,
        want: [
          "Root causes (2 findings explained, 3 more likely):",
          `? [critical, hypothesis] ${UNGUARDED}`,
          "    explains 3 findings of credentials-not-cached, rule:my-alerts-credentials (getMyAlerts)",
          "    evidence: getMyAlerts, no key",
          `    to confirm: ${UNGUARDED_CONFIRM}`,
          `✗ [high] ${TITLE}`,
          "    explains 2 findings of content-type, rate-limit (getMeta), 1 of them through what follows from it",
          "    evidence: 11 answers 429",
          `    ↳ [medium, hypothesis] ${PREFLIGHT}`,
          "        explains 1 finding of rate-limit (getMeta)",
          "        evidence: refused after 58 GETs",
          `        to confirm: ${PREFLIGHT_CONFIRM}`,
          // The rows stay under their top-level cause.
          `── ${UNGUARDED}`,
          "✗ credentials-not-cached",
          `── ${TITLE}`,
          "✗ content-type",
          "✗ rate-limit",
        ],
        // No group of the follower's own; the hypothesis' 3 not counted as established, the follower's 1 not twice.
        never: [`── ${PREFLIGHT}`, "5 findings explained", "6 findings"],
      },
    ],
    [
      "markdown: a hypothesis in italics, to confirm under its evidence, the follower a nested item",
      {
        render: formatMarkdown,
        want: [
          "### Root causes",
          `- *[critical] ${emphasised(UNGUARDED)}* *(hypothesis)*: explains 3 findings of \`credentials-not-cached\`, \`rule:my-alerts-credentials\` (getMyAlerts)`,
          "  - getMyAlerts, no key",
          `  - *to confirm:* ${UNGUARDED_CONFIRM}`,
          `- **[high] ${emphasised(TITLE)}**: explains 2 findings of \`content-type\`, \`rate-limit\` (getMeta), 1 of them through what follows from it`,
          "  - 11 answers 429",
          `  - ↳ *[medium] ${emphasised(PREFLIGHT)}* *(hypothesis)*: explains 1 finding of \`rate-limit\` (getMeta)`,
          "    - refused after 58 GETs",
          `    - *to confirm:* ${PREFLIGHT_CONFIRM}`,
          "| `credentials-not-cached` | getMeta | getMyAlerts served without the key | root cause 1 (hypothesis) |",
          "| `rate-limit` | getMeta | refused after 58 requests | root cause 2 |",
        ],
        never: ["root cause 3", `**[critical] ${emphasised(UNGUARDED)}**`],
      },
    ],
    [
      "HTML: a hypothesis tagged and in italics, to confirm under its evidence, the follower a nested list",
      {
        render: formatHtml,
        want: [
          "<h2>Root causes</h2><ol>",
          `<span class="sev sev-critical">critical</span> <span class="hypothesis">hypothesis</span> <em><strong>${html(UNGUARDED)}</strong></em>: explains 3 findings of <code>credentials-not-cached</code>`,
          `<li class="confirm"><em>to confirm:</em> ${html(UNGUARDED_CONFIRM)}</li>`,
          "(getMeta), 1 of them through what follows from it",
          '<ul class="follows" aria-label="what follows from it">',
          `<span class="sev sev-medium">medium</span> <span class="hypothesis">hypothesis</span> <em><strong>${PREFLIGHT}</strong></em>: explains 1 finding of <code>rate-limit</code> (getMeta)`,
          "<li>refused after 58 GETs and their 2 preflights</li>",
          `<li class="confirm"><em>to confirm:</em> ${PREFLIGHT_CONFIRM}</li>`,
          "</ul>\n</li>",
          "</ol>",
        ],
        never: [`<strong>${html(TITLE)}</strong></em>`],
      },
    ],
    [
      "JUnit: a case per top-level cause, the follower in its parent's text, never a case of its own",
      {
        render: formatJunit,
        want: [
          'tests="6" failures="6"',
          `name="cause: credentials-unguarded"`,
          `message="[critical, hypothesis] ${UNGUARDED}`,
          `to confirm: ${UNGUARDED_CONFIRM}`,
          `name="cause: limiter-in-front"`,
          `follows from it: [medium, hypothesis] ${PREFLIGHT}`,
          "  explains 1 finding of rate-limit (getMeta)",
          `  to confirm: ${PREFLIGHT_CONFIRM}`,
          'name="rate-limit"',
        ],
        never: ["cause: limiter-counts-preflight"],
      },
    ],
  ])("%s", (_, { render, want, never }) => {
    const text = render(withFollower);
    const at = inOrder(text, want);
    expect(want.filter((_, i) => (at[i] ?? -1) < 0)).toEqual([]);
    for (const n of never) expect(text).not.toContain(n);
  });

  it.each<[string, { causes: RunReport["causes"]; console: string; heading: string }]>([
    [
      "every cause established",
      { causes: report.causes, console: "Root causes (1 finding explained):", heading: "### Root causes" },
    ],
    [
      "every cause a hypothesis: never headed as established",
      {
        causes: withFollower.causes.slice(0, 1),
        console: "Likely root causes (3 findings explained if confirmed):",
        heading: "### Likely root causes",
      },
    ],
  ])("the causes' headline: %s", (_, { causes, console, heading }) => {
    expect(formatConsole({ ...withFollower, causes })).toContain(`\n${console}\n`);
    expect(formatMarkdown({ ...withFollower, causes })).toContain(`\n${heading}\n`);
  });
});
