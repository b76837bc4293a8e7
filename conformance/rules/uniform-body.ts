/**
 * The `uniformBody` expectation of the credentials rules: missing key, wrong key, malformed key,
 * unknown uid, missing uid, and the account's key with a uid not written exactly as its uid all get
 * one identical body, so the answer does not reveal whether a uid exists. (Their status, 401, is
 * judged per exchange by the rule itself.)
 *
 * Whether a uid exists is the point, and only an account (given, or the bundled server's demo
 * account) makes the uid asked about one known to exist. Without one it is a guess (the bundled
 * demo's 10001 means nothing on a real deployment), yet most of the rule needs no account: every
 * variant refused 401 (judged per answer) with one identical body across the variants and uids.
 * So the group is judged as evidence of that part, and its verdict names the part left unjudged
 * (`partial`): that equal bodies also hide which uid exists, which needs a uid known to exist.
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

/**
 * The part of the rule a run without an account leaves unjudged, and what it needs: the user did
 * not give it, so the run's verdict may still pass, with this note on the check (README "Judged in part").
 */
export const UNKNOWN_UID = `judged in part, without an account: that every invalid credential gets one identical 401 body; not judged: that it hides which uid exists, since uid ${GUESSED_UID} is a guess, not known to exist (give --uid and --api-key)`;

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
      ...(uid.known ? {} : { partial: UNKNOWN_UID }),
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
