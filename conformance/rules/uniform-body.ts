/**
 * The `uniformBody` expectation of the credentials rules: missing key, wrong key, malformed key,
 * unknown uid and missing uid all get one identical body, so the answer does not reveal whether
 * a uid exists. (Their status is judged per exchange by the rule itself.)
 */
import type { Rule } from "../../src/rules/types.ts";
import type { Operation } from "../../src/spec/types.ts";
import { WRONG_KEY } from "../arbitraries/requests.ts";
import type { Exchange, Finding, ProbeContext, ProbeOutcome, RequestCase } from "../types.ts";

export async function probeUniformBody(ctx: ProbeContext, op: Operation, rule: Rule): Promise<ProbeOutcome> {
  const knownUid = ctx.account?.uid ?? "10001";
  const variants: [string, [string, string][], Record<string, string>][] = [
    ["no key, known uid", [["uid", knownUid]], {}],
    ["wrong key, known uid", [["uid", knownUid]], { "x-api-key": WRONG_KEY }],
    ["wrong key, unknown uid", [["uid", "999999998"]], { "x-api-key": WRONG_KEY }],
    ["malformed key", [["uid", knownUid]], { "x-api-key": "not-a-key" }],
    ["no uid, no key", [], {}],
  ];
  const exchanges: Exchange[] = [];
  for (const [label, query, headers] of variants) {
    const request: RequestCase = {
      method: "GET",
      operationId: op.operationId,
      pathname: op.path,
      query,
      headers,
      credentials: "invalid",
      label: `rule:${rule.id} ${label}`,
    };
    exchanges.push(await ctx.send(request));
  }
  const findings: { finding: Finding; exchange: Exchange }[] = [];
  // A 429 (the limiter answering instead of the operation) says nothing about the credentials.
  const limited = (e: Exchange) => e.status === ctx.spec.rateLimit.status;
  const first = exchanges.find((e) => !limited(e));
  for (const [i, e] of exchanges.entries()) {
    if (!first || limited(e) || e.text === first.text) continue;
    findings.push({
      exchange: e,
      finding: {
        code: `rule:${rule.id}`,
        rule: rule.id,
        title: `${rule.summary} "${variants[i]?.[0]}" got a different body than "${variants[exchanges.indexOf(first)]?.[0]}"`,
        received: e.text.slice(0, 200),
        documented: first.text.slice(0, 200),
      },
    });
  }
  return { cases: exchanges.length, findings };
}
