/**
 * The `uniformBody` expectation of the credentials rules: missing key, wrong key, malformed key,
 * unknown uid, missing uid, and the account's key with a uid not written exactly as its uid all get
 * one identical body, so the answer does not reveal whether a uid exists. (Their status, 401, is
 * judged per exchange by the rule itself.)
 */
import type { Rule } from "../../src/rules/types.ts";
import type { Operation } from "../../src/spec/types.ts";
import { wrongKeyFor } from "../arbitraries/requests.ts";
import type {
  CheckContext,
  Exchange,
  Finding,
  PlanContext,
  PlannedGroup,
  SentGroup,
  Verdict,
} from "../types.ts";

const VARIANTS = (
  knownUid: string,
  wrongKey: string,
  key: string | undefined,
): [string, [string, string][], Record<string, string>][] => [
  ["no key, known uid", [["uid", knownUid]], {}],
  ["wrong key, known uid", [["uid", knownUid]], { "x-api-key": wrongKey }],
  ["wrong key, unknown uid", [["uid", "999999998"]], { "x-api-key": wrongKey }],
  ["malformed key", [["uid", knownUid]], { "x-api-key": "not-a-key" }],
  ["no uid, no key", [], {}],
  // The credentials are checked first, on the uid as sent (info.description "Order of checks"):
  // the account's own key with a uid that is not exactly its uid authenticates no one.
  ...(key
    ? ([
        // A leading zero: the same number, not the same uid (an integer parser lets it in, as it
        // would `10001.0` after a float parse). A bad limit too: still the 401, since no parameter
        // is read before the credentials.
        [
          "the key, uid with a leading zero, a bad limit",
          [
            ["uid", `0${knownUid}`],
            ["limit", "0"],
          ],
          { "x-api-key": key },
        ],
        [
          "the key, uid given twice",
          [
            ["uid", knownUid],
            ["uid", knownUid],
          ],
          { "x-api-key": key },
        ],
      ] as [string, [string, string][], Record<string, string>][])
    : []),
];

export function planUniformBody(ctx: PlanContext, op: Operation, rule: Rule): PlannedGroup[] {
  const requests = VARIANTS(ctx.account?.uid ?? "10001", wrongKeyFor(ctx.account), ctx.account?.key).map(
    ([label, query, headers]) => ({
      method: "GET" as const,
      operationId: op.operationId,
      pathname: op.path,
      query,
      headers,
      credentials: "invalid" as const,
      label: `rule:${rule.id} ${label}`,
    }),
  );
  return [{ check: `rule:${rule.id}`, kind: "set", requests, label: rule.id }];
}

export function judgeUniformBody(ctx: CheckContext, rule: Rule, group: SentGroup): Verdict {
  // A 429 (the limiter answering instead of the operation) says nothing about the credentials.
  const answered = group.exchanges.filter((e) => !e.failure && e.status !== ctx.spec.rateLimit.status);
  const first = answered[0];
  const findings: { finding: Finding; exchange: Exchange }[] = [];
  for (const e of answered) {
    if (!first || e.text === first.text) continue;
    findings.push({
      exchange: e,
      finding: {
        code: `rule:${rule.id}`,
        rule: rule.id,
        title: `${rule.summary} "${variantOf(e)}" got a different body than "${variantOf(first)}"`,
        received: e.text.slice(0, 200),
        documented: first.text.slice(0, 200),
      },
    });
  }
  return { findings, informative: answered.length >= 2 };
}

const variantOf = (e: Exchange) => e.request.label.replace(/^rule:\S+ /, "");
