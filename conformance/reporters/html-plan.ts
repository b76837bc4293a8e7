/**
 * The HTML report's plan: what each request of the run was for (a plan step's goals, a group's
 * check, discovery, the burst, random exploration), when it left and what came back, one row a
 * request; and where a click on a point of the timeline leads: the exchange's finding when it
 * has one, else its row here.
 */
import type { RunReport } from "../runner/report.ts";
import type { Violation } from "../types.ts";
import { text } from "./html-escape.ts";
import { laneOf } from "./html-timeline.ts";
import { plural } from "./plural.ts";

/** Rows of the request table at most: past this the section says how many were left out. */
export const PLAN_ROWS = 1500;

/** The element id of a request's row. */
export const requestId = (index: number, prefix = "") => `${prefix}req-${index + 1}`;

/** The finding each exchange gave first, by timeline index. */
function firstFindings(report: RunReport, ids: Map<Violation, string>): Map<number, string> {
  const out = new Map<number, string>();
  for (const c of report.checks)
    for (const v of c.violations) {
      const id = ids.get(v);
      if (v.exchange !== undefined && id && !out.has(v.exchange)) out.set(v.exchange, id);
    }
  return out;
}

/** Where each point of the timeline leads: its finding, else its row of the plan. */
export function exchangeTargets(
  report: RunReport,
  ids: Map<Violation, string>,
  prefix = "",
): Map<number, string> {
  const out = firstFindings(report, ids);
  const rows = Math.min(report.timeline?.length ?? 0, PLAN_ROWS);
  for (let i = 0; i < rows; i++) if (!out.has(i)) out.set(i, requestId(i, prefix));
  return out;
}

/**
 * A purpose's kind, for the summary: "plan", "group" (a check's own requests, sent together),
 * "discovery", "burst", "random valid", "steered"... (the words before the first check name).
 */
function kindOfPurpose(purpose: string): string {
  if (purpose.startsWith("group ")) return "group";
  return (purpose.split(":")[0] ?? purpose).replace(/ (rule|relation)$/, "").trim() || purpose;
}

export function plan(report: RunReport, ids: Map<Violation, string>, prefix = ""): string {
  const timeline = report.timeline ?? [];
  if (timeline.length === 0) return "";
  const kinds = new Map<string, { n: number; failed: number }>();
  for (const p of timeline) {
    const k = kindOfPurpose(p.purpose ?? p.phase ?? "other");
    const entry = kinds.get(k) ?? { n: 0, failed: 0 };
    entry.n++;
    if (p.status === 0 || p.status >= 500) entry.failed++;
    kinds.set(k, entry);
  }
  const summary = [...kinds]
    .sort((a, b) => b[1].n - a[1].n)
    .map(
      ([k, { n, failed }]) =>
        `<li><strong>${text(k)}</strong>: ${plural(n, "request")}${failed ? `, ${failed} without a whole or sound answer` : ""}</li>`,
    )
    .join("");
  const found = firstFindings(report, ids);
  const rows = timeline.slice(0, PLAN_ROWS).map((p, i) => {
    const finding = found.get(i);
    const answer = p.status === 0 ? (p.failure ?? "no answer") : String(p.status);
    return `<tr id="${requestId(i, prefix)}"><td>${i + 1}</td><td>${(p.at / 1000).toFixed(1)}</td><td>${text(p.phase ?? "")}</td><td><code>${text(p.request ?? p.operation ?? "", 300)}</code></td><td>${text(p.purpose ?? "", 200)}</td><td class="l-${laneOf(p)}">${text(answer)}</td><td>${finding ? `<a href="#${finding}">finding</a>` : ""}</td></tr>`;
  });
  const cut =
    timeline.length > PLAN_ROWS
      ? `<p class="muted">${timeline.length - PLAN_ROWS} later requests not listed.</p>`
      : "";
  return [
    `<section aria-labelledby="${prefix}plan"><h2 id="${prefix}plan">Plan</h2>`,
    `<p class="muted">What the run's ${plural(timeline.length, "request")} were for:</p><ul>${summary}</ul>`,
    `<details class="requests" id="${prefix}plan-requests"><summary>Every request: when it left, what it was for, what came back</summary>`,
    '<div class="table"><table><thead><tr><th>#</th><th>s</th><th>phase</th><th>request</th><th>for</th><th>answer</th><th></th></tr></thead><tbody>',
    ...rows,
    `</tbody></table></div>${cut}</details></section>`,
  ].join("\n");
}
