/**
 * The `ignores` expectation: adding the named parameters must not change the body. A served base
 * request A is sent, then A with each ignored parameter added (a plausible value and a junk one),
 * then A again (A′), back to back: if A′ differs from A the data moved meanwhile and nothing can
 * be concluded (the executor retries the group once); otherwise every variant must equal A.
 */
import { isDeepStrictEqual } from "node:util";
import type { Rule } from "../../src/rules/types.ts";
import type { Operation } from "../../src/spec/types.ts";
import type {
  CheckContext,
  Exchange,
  Finding,
  PlanContext,
  PlannedGroup,
  SentGroup,
  Verdict,
} from "../types.ts";

const VALUES = ["2", "abc"];

export function planIgnores(ctx: PlanContext, op: Operation, rule: Rule): PlannedGroup[] {
  const base = ctx.validCases(op.operationId)[0];
  if (!base) return [];
  const variants = (rule.then.ignores ?? []).flatMap((name) =>
    VALUES.map((value) => ({
      ...base,
      query: [...base.query, [name, value] as [string, string]],
      label: `rule:${rule.id} +${name}=${value}`,
    })),
  );
  const control = { ...base, label: `rule:${rule.id} control` };
  return [
    { check: `rule:${rule.id}`, kind: "compare", requests: [control, ...variants], label: `${rule.id}` },
  ];
}

const nonEmpty = (body: unknown) => {
  const data = (body as { data?: unknown } | null)?.data ?? body;
  return Array.isArray(data) ? data.length > 0 : data !== undefined && data !== null;
};

export function judgeIgnores(ctx: CheckContext, rule: Rule, group: SentGroup): Verdict {
  // No whole answer, a 429 or a 5xx is another check's finding, not an answer to compare.
  const comparable = (e: Exchange | undefined): e is Exchange =>
    e !== undefined && !e.failure && e.status !== ctx.spec.rateLimit.status && e.status < 500;
  const [control, ...rest] = group.exchanges;
  const again = rest.at(-1);
  const none = (why: string): Verdict => ({ findings: [], informative: false, inconclusive: why });
  const status = (e: Exchange | undefined) =>
    e?.failure ? "without a whole answer" : String(e?.status ?? "nothing");
  if (!comparable(control) || control.status !== 200)
    return none(`the base request was answered ${status(control)}`);
  if (!comparable(again)) return none(`the base request, sent again, was answered ${status(again)}`);
  if (again.status !== 200 || !isDeepStrictEqual(again.body, control.body)) {
    return { ...none("data changed: the base request, sent again, got another answer"), moved: true };
  }
  const variants = rest.slice(0, -1).filter(comparable);
  if (variants.length === 0) return none("no variant got an answer to compare");
  const findings: { finding: Finding; exchange: Exchange }[] = [];
  for (const paired of variants) {
    if (paired.status === 200 && isDeepStrictEqual(paired.body, control.body)) continue;
    const added = paired.request.query.at(-1) ?? ["", ""];
    findings.push({
      exchange: paired,
      finding: {
        code: `rule:${rule.id}`,
        rule: rule.id,
        title: `${rule.summary} Adding ${added[0]}=${added[1]} changed the answer (the base request, sent before and after it, got the same answer both times)`,
        received: { status: paired.status, body: paired.text.slice(0, 200) },
        documented: { status: 200, body: control.text.slice(0, 200) },
      },
    });
  }
  return { findings, informative: nonEmpty(control.body) };
}
