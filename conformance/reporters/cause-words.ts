/**
 * What every format says of the root causes alike: the headline of their section, how many
 * findings they explain, and what each one explains. A likely cause is a hypothesis and is never
 * headed or counted as established; a follower's findings are its parent's already (the parent's
 * count holds them), so only the top-level causes are counted.
 */
import type { Cause } from "../runner/causes.ts";
import { plural } from "./plural.ts";

/** "Root causes", or "Likely root causes" when every one is a hypothesis. */
export const causesHeading = (causes: Cause[]) =>
  causes.length > 0 && causes.every((c) => c.likely) ? "Likely root causes" : "Root causes";

const findings = (causes: Cause[]) => causes.reduce((n, c) => n + c.count, 0);

/** "7 findings explained", "4 findings explained, 3 more likely", "3 findings explained if confirmed". */
export function explainedWords(causes: Cause[]): string {
  const sure = findings(causes.filter((c) => !c.likely));
  const likely = findings(causes.filter((c) => c.likely));
  if (likely === 0) return `${plural(sure, "finding")} explained`;
  if (sure === 0) return `${plural(likely, "finding")} explained if confirmed`;
  return `${plural(sure, "finding")} explained, ${likely} more likely`;
}

/** A cause's severity, and "hypothesis" beside it when it is one: "high", "high, hypothesis". */
export const severityTag = (c: Cause) => `${c.severity}${c.likely ? ", hypothesis" : ""}`;

/** What would confirm a likely cause, when it says. */
export const toConfirm = (c: Cause) => (c.likely && c.confirm ? c.confirm : undefined);

const plain = (s: string) => s;

/**
 * "explains 4 findings of cache-control, rate-limit (listAlerts), 1 of them through what follows
 * from it": each format writes a check's name and the operations its own way (`code`, `words`).
 */
export function explainsWords(c: Cause, code: (s: string) => string = plain, words = plain): string {
  const followed = findings(c.follows ?? []);
  return (
    `explains ${plural(c.count, "finding")} of ${c.checks.map(code).join(", ")} (${words(c.operations.join(", "))})` +
    (followed > 0 ? `, ${followed} of them through what follows from it` : "")
  );
}
