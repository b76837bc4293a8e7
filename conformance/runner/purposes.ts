/**
 * What each request of a run was for, for the HTML report's plan and timeline: a plan step by the
 * goals it was chosen for, a group's request by its check and its place in the group, anything
 * else (discovery, the burst, random exploration) by its request's own label. Read after the run
 * from what the sender kept, so sending costs nothing more.
 */
import type { Exchange } from "../types.ts";
import type { TimelinePoint } from "./report.ts";
import type { Sender } from "./sender.ts";

/** Characters kept of a request line: a long-URL probe must not grow the report by kilobytes. */
const REQUEST_CAP = 240;
const PURPOSE_CAP = 160;

const cap = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The request as a line: method, path and query as sent. */
export function requestLine(e: Pick<Exchange, "request" | "url">): string {
  let target = e.url;
  try {
    const u = new URL(e.url);
    target = `${u.pathname}${u.search}`;
  } catch {
    // Not a URL the WHATWG parser reads (a raw query probe): shown as sent.
  }
  return cap(`${e.request.method} ${target}`, REQUEST_CAP);
}

/** The default purpose of an exchange: its request's label (discovery, burst, random valid...). */
export function defaultPurpose(e: Pick<Exchange, "request">): string {
  return cap(e.request.label, PURPOSE_CAP);
}

/** Gives the plan's steps and groups their purpose on the points of the exchanges they sent. */
export function notePurposes(points: WeakMap<Exchange, TimelinePoint>, sender: Sender): void {
  for (const [step, e] of sender.sent) {
    const point = points.get(e);
    if (point && step.goals.length > 0) point.purpose = cap(`plan: ${step.goals.join(", ")}`, PURPOSE_CAP);
  }
  for (const { group, exchanges } of sender.groups)
    for (const e of exchanges) {
      const point = points.get(e);
      // Labels often repeat the check's name: "rule:x control" reads "group rule:x: control".
      const label = e.request.label.startsWith(`${group.check} `)
        ? e.request.label.slice(group.check.length + 1)
        : e.request.label;
      if (point) point.purpose = cap(`group ${group.check}: ${label}`, PURPOSE_CAP);
    }
}
