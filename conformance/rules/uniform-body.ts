/**
 * The `uniformBody` expectation of the credentials rules: missing key, wrong key, malformed key,
 * unknown uid, missing uid, and the account's key with a uid not written exactly as its uid all get
 * one identical body, so the answer does not reveal whether a uid exists. (Their status, 401, is
 * judged per exchange by the rule itself.)
 *
 * Whether a uid exists is the point, so the group is evidence only with a uid known to exist:
 * the account's (given, or the bundled server's demo account). Without one the uid asked about is
 * a guess (the bundled demo's 10001 means nothing on a real deployment): the group is still sent,
 * since bodies that differ between its variants are a fault whatever the uid, but it proves
 * nothing when they agree, and the rule is "not exercised" for want of an account.
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

/** The uid asked about without an account: well formed, not known to exist. */
const GUESSED_UID = "10001";

const VARIANTS = (
  uid: { value: string; known: boolean },
  wrongKey: string,
  key: string | undefined,
): [string, [string, string][], Record<string, string>][] => [
  [`no key, ${uid.known ? "known uid" : "a uid"}`, [["uid", uid.value]], {}],
  [`wrong key, ${uid.known ? "known uid" : "a uid"}`, [["uid", uid.value]], { "x-api-key": wrongKey }],
  ["wrong key, unknown uid", [["uid", "999999998"]], { "x-api-key": wrongKey }],
  ["malformed key", [["uid", uid.value]], { "x-api-key": "not-a-key" }],
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
            ["uid", `0${uid.value}`],
            ["limit", "0"],
          ],
          { "x-api-key": key },
        ],
        [
          "the key, uid given twice",
          [
            ["uid", uid.value],
            ["uid", uid.value],
          ],
          { "x-api-key": key },
        ],
      ] as [string, [string, string][], Record<string, string>][])
    : []),
];

export function planUniformBody(ctx: PlanContext, op: Operation, rule: Rule): PlannedGroup[] {
  const uid = ctx.account ? { value: ctx.account.uid, known: true } : { value: GUESSED_UID, known: false };
  const requests = VARIANTS(uid, wrongKeyFor(ctx.account), ctx.account?.key).map(
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
  return [
    {
      check: `rule:${rule.id}`,
      kind: "set",
      requests,
      label: rule.id,
      ...(uid.known ? {} : { unproven: `no account: uid ${GUESSED_UID} is a guess, not known to exist` }),
    },
  ];
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
