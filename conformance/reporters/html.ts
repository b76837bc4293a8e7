/**
 * The report as one self-contained HTML page (`--report html=FILE`): for the team lead opening a CI
 * artifact after a failed night run. The verdict and its causes first, then the run's facts and
 * timeline, every finding expandable with its request, answer and replay (each with a copy
 * button), and every check, filterable by status, kind and operation. Inline style and script, no
 * network; every text goes through html-escape.ts (a target's body can hold anything).
 */
import { createHash } from "node:crypto";
import type { Cause } from "../runner/causes.ts";
import type { CheckResult, RunReport } from "../runner/report.ts";
import type { Violation } from "../types.ts";
import { causesHeading, explainsWords, toConfirm } from "./cause-words.ts";
import { inPart, runVolume } from "./console.ts";
import { SCRIPT, STYLE } from "./html-assets.ts";
import { text } from "./html-escape.ts";
import { exchangeTargets, plan } from "./html-plan.ts";
import { LANES, timelineSvg } from "./html-timeline.ts";
import { plural } from "./plural.ts";
import { asShown, headline, VERDICT_WORDS } from "./verdict.ts";

/** A check's kind, as its name says: `rule:<id>` and `relation:<id>`, the rest protocol checks. */
export function kindOf(name: string): "rule" | "relation" | "protocol" {
  if (name.startsWith("rule:")) return "rule";
  if (name.startsWith("relation:")) return "relation";
  return "protocol";
}

const STATUS_WORDS: Record<CheckResult["status"], string> = {
  pass: "passed",
  fail: "failed",
  "not-exercised": "not exercised",
  skipped: "not selected",
};

/** The operations a check touches: its own, and those of its findings. */
function operationsOf(c: CheckResult): string[] {
  return [...new Set([...(c.operation ? [c.operation] : []), ...c.violations.map((v) => v.operation)])];
}

/** The attributes the page's filters read (values escaped like any other text). */
function filterAttributes(c: CheckResult, operations = operationsOf(c)): string {
  return `data-status="${text(c.status)}" data-kind="${kindOf(c.name)}" data-operations="${text(operations.join(" "))}"`;
}

/**
 * The request a finding came from, on a line of its own under its cause: what a person opening
 * the report looks for first. The timeline's line (method, URL, answer) when the run linked the
 * two, else the curl line.
 */
function failingRequest(v: Violation, report: RunReport): string {
  const point = v.exchange !== undefined ? report.timeline?.[v.exchange] : undefined;
  const line = point?.request
    ? `${point.request} → ${point.status === 0 ? (point.failure ?? "no answer") : point.status}`
    : v.request;
  return `<br><code class="failing-request">${text(line, 300)}</code>`;
}

/** The headline's first letter capitalised: "Incomplete: …", "Could not judge the target". */
const capitalised = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/** The verdict's class: its colour (a pass green, a failure red, incomplete and not judged amber). */
const VERDICT_CLASS: Record<RunReport["verdict"], string> = {
  passed: "passed",
  failed: "failed",
  incomplete: "incomplete",
  "not-judged": "error",
};

/** The verdict's headline: "Passed", "Failed: 3 checks failed", "Incomplete: …", "Could not judge the target". */
function verdictHeading(report: RunReport): string {
  const { verdict, words } = headline(report);
  return capitalised(verdict === "failed" ? `failed: ${words}` : words);
}

/**
 * A root cause as a list item: its severity and claim (a hypothesis in italics and tagged as one),
 * what it explains, `link` (its first finding), its evidence and what would confirm it, then what
 * follows from it as a nested list.
 */
function causeItem(c: Cause, link = ""): string {
  const claim = c.likely
    ? `<span class="hypothesis">hypothesis</span> <em><strong>${text(c.title)}</strong></em>`
    : `<strong>${text(c.title)}</strong>`;
  const confirm = toConfirm(c);
  const evidence = [
    ...c.evidence.map((e) => `<li>${text(e)}</li>`),
    ...(confirm ? [`<li class="confirm"><em>to confirm:</em> ${text(confirm)}</li>`] : []),
  ];
  const follows = c.follows?.length
    ? `<ul class="follows" aria-label="what follows from it">${c.follows.map((f) => causeItem(f)).join("\n")}</ul>`
    : "";
  return [
    `<li><span class="sev sev-${text(c.severity)}">${text(c.severity)}</span> ${claim}: ${explainsWords(c, (k) => `<code>${text(k)}</code>`, text)}${link}`,
    evidence.length > 0 ? `<ul>${evidence.join("")}</ul>` : "",
    follows,
    "</li>",
  ].join("\n");
}

/**
 * The verdict: `level` 1 for a report of its own, 3 for a target's inside a matrix (its heading
 * then names the target above it). An incomplete run lists why under its headline, its own reason first.
 */
export function verdict(report: RunReport, findingIds: Map<Violation, string>, level = 1): string {
  const failed = report.checks.filter((c) => c.status === "fail");
  const { reasons } = headline(report);
  const lines = [
    `<section class="verdict ${VERDICT_CLASS[report.verdict]}" aria-label="verdict">`,
    `<h${level}>${text(verdictHeading(report))}</h${level}>`,
  ];
  if (report.error) lines.push(`<p>${text(report.error)}</p>`);
  const counts = (["pass", "fail", "not-exercised", "skipped"] as const)
    .map(
      (s) =>
        `${report.checks.filter((c) => c.status === s).length} ${STATUS_WORDS[s]}${s === "pass" ? inPart(report) : ""}`,
    )
    .join(" · ");
  lines.push(`<p class="muted">${text(report.baseUrl)} · ${text(runVolume(report))} · ${counts}</p>`);
  if (reasons.length > 0) {
    lines.push(
      `<h${level + 1}>Not judged</h${level + 1}><ul class="reasons">${reasons.map((r) => `<li>${text(r, 600)}</li>`).join("")}</ul>`,
    );
  }
  if (report.causes.length > 0) {
    lines.push(`<h${level + 1}>${causesHeading(report.causes)}</h${level + 1}><ol>`);
    for (const c of report.causes) {
      const first = report.checks
        .flatMap((k) => k.violations)
        .find((v) => v.cause === c.id && findingIds.has(v));
      const link = first
        ? ` · <a href="#${findingIds.get(first)}">first finding</a>${failingRequest(first, report)}`
        : "";
      lines.push(causeItem(c, link));
    }
    lines.push("</ol>");
  } else if (failed.length > 0) {
    lines.push(`<h${level + 1}>Failed checks</h${level + 1}><ul>`);
    for (const c of failed) {
      const first = c.violations.find((v) => findingIds.has(v));
      lines.push(
        `<li><span class="sev sev-${text(c.severity)}">${text(c.severity)}</span> <code>${text(c.name)}</code>: ${text(c.title)} · ${plural(c.violations.filter((v) => !v.known).length, "finding")}${first ? ` · <a href="#${findingIds.get(first)}">first finding</a>${failingRequest(first, report)}` : ""}</li>`,
      );
    }
    lines.push("</ul>");
  }
  for (const e of report.expiredKnown ?? [])
    lines.push(`<p><strong>Expired known finding (fails the run):</strong> ${text(e)}</p>`);
  lines.push("</section>");
  return lines.join("\n");
}

export function facts(report: RunReport, prefix = ""): string {
  const rows: [string, string][] = [
    ["target", text(report.baseUrl)],
    ["mode", text(report.mode === "passive" ? "passive (traffic judged as it passed)" : report.mode)],
    ["seed", String(report.seed)],
    ...(report.rate
      ? [
          ["rate in force", `${report.rate.limit} requests per ${report.rate.windowSeconds} s`] as [
            string,
            string,
          ],
        ]
      : []),
    ["started", text(report.startedAt)],
    ["duration", `${(report.durationMs / 1000).toFixed(1)} s`],
    ["requests", text(runVolume(report))],
    ["429s outside the burst", String(report.unexpected429)],
    ["--require-evidence", report.requireEvidence ? "yes" : "no"],
  ];
  const list = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
  const notes =
    report.notes.length > 0
      ? `<h3>Notes</h3><ul>${report.notes.map((n) => `<li>${text(n)}</li>`).join("")}</ul>`
      : "";
  return `<section aria-labelledby="${prefix}facts"><h2 id="${prefix}facts">The run</h2><dl class="facts">${list}</dl>${notes}</section>`;
}

export function timeline(report: RunReport, ids: Map<Violation, string>, prefix = ""): string {
  const svg = timelineSvg(report, exchangeTargets(report, ids, prefix), prefix);
  if (!svg) return "";
  const legend = LANES.map((l) => `<span class="mono">${l}</span>`).join(" · ");
  return `<section aria-labelledby="${prefix}timeline"><h2 id="${prefix}timeline">Timeline</h2><p class="muted">Each dot a request, by when it left and what came back (${legend}); bands are the run's phases, dashed lines the rate windows with the requests sent in each. Hover a dot for its operation and status; a click opens its finding, or its request in the plan.</p>${svg}</section>`;
}

/** One copyable block: a labelled <pre> and a button copying its text. */
function block(id: string, label: string, body: string): string {
  return `<div class="block"><div class="block-head"><span>${label}</span><button type="button" data-copy="${id}" aria-label="Copy ${label}">Copy</button></div><pre id="${id}">${body}</pre></div>`;
}

function answerFacts(v: Violation): string {
  const a = v.answer;
  if (!a) return "";
  const rows: [string, string][] = [
    ["status", a.status === 0 ? "no whole answer" : String(a.status)],
    ...(a.mediaType ? [["content-type", text(a.mediaType)] as [string, string]] : []),
    ["CORS headers", a.cors ? "present" : "absent"],
    ["RateLimit headers", a.rateLimit ? "present" : "absent"],
    ["Retry-After", a.retryAfter ? "present" : "absent"],
    ...(a.server ? [["server", text(a.server)] as [string, string]] : []),
    ...(a.via ? [["via", text(a.via)] as [string, string]] : []),
    ...(a.cache.length > 0 ? [["cache", text(a.cache.join(", "))] as [string, string]] : []),
    ...(a.replayed ? [["repeats", text(a.replayed)] as [string, string]] : []),
  ];
  return `<h4>The answer</h4><dl class="facts">${rows.map(([k, val]) => `<dt>${k}</dt><dd>${val}</dd>`).join("")}</dl>`;
}

function finding(v: Violation, check: CheckResult, id: string, report: RunReport): string {
  const cause = report.causes.find((c) => c.id === v.cause);
  const known = v.known
    ? ` <span class="muted">(known until ${text(v.known.expires)}: ${text(v.known.reason)})</span>`
    : "";
  return [
    `<details class="finding" id="${id}" ${filterAttributes(check, [v.operation])}>`,
    `<summary><span class="sev sev-${text(v.severity)}">${text(v.severity)}</span> <code>${text(v.check)}</code> · ${text(v.operation)}: ${text(v.title, 300)}${known}</summary>`,
    `<p class="muted">code <code>${text(v.code)}</code>${v.rule ? ` · rule <code>${text(v.rule)}</code>` : ""}${cause ? ` · root cause: ${text(cause.title)}` : ""}</p>`,
    block(`${id}-request`, "Request (curl)", text(v.request)),
    answerFacts(v),
    block(`${id}-received`, "Received", text(v.received)),
    block(`${id}-documented`, "Documented", text(v.documented)),
    block(`${id}-replay`, "Replay", text(v.replay)),
    v.reproduce ? block(`${id}-reproduce`, "Reproduce script", text(v.reproduce, 8000)) : "",
    "</details>",
  ].join("\n");
}

export function findings(report: RunReport, ids: Map<Violation, string>, prefix = ""): string {
  if (ids.size === 0) return "";
  const parts = [`<section aria-labelledby="${prefix}findings"><h2 id="${prefix}findings">Findings</h2>`];
  for (const c of report.checks)
    for (const v of c.violations) {
      const id = ids.get(v);
      if (id) parts.push(finding(v, c, id, report));
    }
  parts.push("</section>");
  return parts.join("\n");
}

/**
 * What a check's row says under its name: a check's title names the violation it finds ("Server
 * error"), right beside "failed" and wrong beside "passed"; any other row says what it verifies.
 */
const checkWords = (c: CheckResult) => (c.status === "fail" ? c.title : c.verifies);

/** The operations of a check's row, each unbreakable ("getMeta", never "getMet a"), the list breaking between them. */
const operationCell = (c: CheckResult) =>
  operationsOf(c)
    .map((o) => `<span class="op">${text(o)}</span>`)
    .join(", ");

function select(id: string, label: string, options: [string, string][]): string {
  const opts = options
    .map(([value, words]) => `<option value="${text(value)}">${text(words)}</option>`)
    .join("");
  return `<label>${label} <select id="${id}"><option value="">all</option>${opts}</select></label>`;
}

function checks(report: RunReport, ids: Map<Violation, string>): string {
  const operations = [...new Set(report.checks.flatMap(operationsOf))].sort();
  const statuses = (["fail", "not-exercised", "pass", "skipped"] as const).filter((s) =>
    report.checks.some((c) => c.status === s),
  );
  const rows = report.checks.map((c) => {
    const first = c.violations.find((v) => ids.has(v));
    const why = [c.reason, c.note].filter(Boolean).join("; ");
    return `<tr ${filterAttributes(c)}><td class="st st-${text(c.status)}">${STATUS_WORDS[c.status]}${c.inPart ? ", in part" : ""}</td><td><code>${text(c.name)}</code><br><span class="muted">${text(checkWords(c), 300)}</span></td><td>${c.informative} of ${c.cases}</td><td class="wide">${operationCell(c)}</td><td>${first ? `<a href="#${ids.get(first)}">${plural(c.violations.length, "finding")}</a>` : ""}${why ? `<span class="muted">${first ? "<br>" : ""}${text(why, 600)}</span>` : ""}</td></tr>`;
  });
  return [
    '<section aria-labelledby="checks"><h2 id="checks">Checks</h2>',
    '<form class="filters" aria-label="filter the checks">',
    select(
      "f-status",
      "status",
      statuses.map((s) => [s, STATUS_WORDS[s]]),
    ),
    select("f-kind", "kind", [
      ["protocol", "protocol"],
      ["rule", "rule (rule:*)"],
      ["relation", "relation (relation:*)"],
    ]),
    select(
      "f-operation",
      "operation",
      operations.map((o) => [o, o]),
    ),
    `<span id="shown" class="muted" aria-live="polite">${report.checks.length} checks shown</span></form>`,
    '<div class="table"><table><thead><tr><th>status</th><th>check</th><th>evidence (informative of judged)</th><th class="wide">operation</th><th>findings · why</th></tr></thead><tbody>',
    ...rows,
    "</tbody></table></div></section>",
  ].join("\n");
}

/**
 * The page's policy: nothing loads from anywhere, and only the page's own style and script run
 * (by hash: an inline handler such as onerror= would not run even if one slipped through).
 */
const hash = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
const POLICY = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src data:`;

/** Each finding's element id: `finding-N`, behind the target's prefix inside a matrix. */
export function findingIds(report: RunReport, prefix = ""): Map<Violation, string> {
  const ids = new Map<Violation, string>();
  for (const c of report.checks) for (const v of c.violations) ids.set(v, `${prefix}finding-${ids.size + 1}`);
  return ids;
}

/** The whole page: a string of HTML, every piece of data escaped and capped. */
export function formatHtml(input: RunReport): string {
  const report = asShown(input);
  const ids = findingIds(report);
  const title = `dealkit conformance: ${VERDICT_WORDS[report.verdict]} · ${report.baseUrl}`;
  return page(
    title,
    [
      verdict(report, ids),
      findings(report, ids),
      facts(report),
      timeline(report, ids),
      plan(report, ids),
      checks(report, ids),
    ].join("\n"),
  );
}

/** A page around sections already escaped: the style, the script, and the policy that only they run. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<title>${text(title, 200)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
