/**
 * `dealkit conformance --plan`: the plan as text. Every request with the goals it was chosen for
 * and the checks that will judge it, the groups, the burst, the fallbacks, the exploration, and
 * what the plan will spend against the budget.
 */
import { caseUrl } from "../http/client.ts";
import { type Plan, requestsOf } from "./plan.ts";

const CHECKS_SHOWN = 6;

function feedsText(feeds: string[]): string {
  // Every routed answer feeds the protocol checks: show what is particular to the request.
  const particular = feeds.filter(
    (f) => f.startsWith("rule:") || f.endsWith("-inputs-accepted") || f.endsWith("-inputs-rejected"),
  );
  const shown = particular.slice(0, CHECKS_SHOWN).join(", ");
  return particular.length > CHECKS_SHOWN ? `${shown}, +${particular.length - CHECKS_SHOWN}` : shown;
}

export function formatPlan(plan: Plan, baseUrl: string, discovered: number): string {
  const target = (path: string, query: [string, string][]) =>
    caseUrl(baseUrl, { pathname: path, query }).replace(baseUrl.replace(/\/$/, ""), "");
  const groupRequests = requestsOf(plan.groups);
  const explored = plan.exploration.reduce((n, x) => n + x.runs, 0);
  const fallbacks = Object.values(plan.fallbacks).reduce((n, f) => n + f.length, 0);
  const fallbackGroups = Object.values(plan.fallbackGroups).flat();
  const lines = [
    `plan: ${plan.mode === "one-address" ? "one client address, paced at" : "spread over loopback addresses, each under"} ${plan.rate.limit} requests per ${plan.rate.windowSeconds} s; budget ${plan.budget} requests`,
    `  discovery: ${discovered} requests (sent)`,
  ];
  if (plan.burst) {
    lines.push(
      `  burst: the first ${plan.rate.limit} requests of one address are the plan's own; then 1-2 over the limit, one to every other operation, the Retry-After wait with knocks, one after`,
    );
  }
  lines.push(`  steps: ${plan.steps.length}`);
  plan.steps.forEach((s, i) => {
    lines.push(
      `  ${String(i + 1).padStart(4)}  ${s.request.method} ${target(s.request.pathname, s.request.query)}`,
    );
    lines.push(
      `        for: ${s.goals.join(", ") || "(selected checks)"}${feedsText(s.feeds) ? ` | judged by ${feedsText(s.feeds)}` : ""}${s.sentBy ? ` | sent by the group ${s.sentBy}` : ""}`,
    );
  });
  lines.push(`  groups: ${plan.groups.length} (${groupRequests} requests)`);
  for (const g of plan.groups) {
    lines.push(
      `        ${g.check} (${g.kind === "compare" ? "control, variants, control again" : "set"}): ${g.requests.map((r) => `${r.method} ${target(r.pathname, r.query)}`).join("; ")}`,
    );
  }
  lines.push(
    `  fallbacks: ${fallbacks} requests for ${Object.keys(plan.fallbacks).length} rules and ${fallbackGroups.length} groups for ${Object.keys(plan.fallbackGroups).length} relations, sent only if a check has no evidence yet`,
  );
  lines.push(
    `  exploration: ${explored} random requests (${plan.exploration.map((x) => `${x.operationId} ${x.runs}`).join(", ")})`,
  );
  const why = new Map<string, string[]>();
  for (const u of plan.uncovered) why.set(u.why, [...(why.get(u.why) ?? []), u.goal]);
  for (const [reason, goals] of why) lines.push(`  not coverable (${reason}): ${goals.join(", ")}`);
  return lines.join("\n");
}
