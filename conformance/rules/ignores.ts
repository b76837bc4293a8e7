/**
 * The `ignores` expectation: adding the named parameters must not change the body. For a few
 * served base requests, the suite sends the same request again with each ignored parameter
 * added (a plausible value and a junk one) and compares the parsed bodies.
 */
import { isDeepStrictEqual } from "node:util";
import type { Rule } from "../../src/rules/types.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Exchange, Finding, ProbeContext, ProbeOutcome } from "../types.ts";

export async function probeIgnores(ctx: ProbeContext, op: Operation, rule: Rule): Promise<ProbeOutcome> {
  const names = rule.then.ignores ?? [];
  const findings: { finding: Finding; exchange: Exchange }[] = [];
  let cases = 0;
  for (const base of ctx.validCases(op.operationId).slice(0, 3)) {
    const plain = await ctx.send(base);
    if (plain.status !== 200) continue;
    for (const name of names) {
      for (const value of ["2", "abc"]) {
        const paired = await ctx.send({
          ...base,
          query: [...base.query, [name, value]],
          label: `rule:${rule.id} paired`,
        });
        cases++;
        if (paired.status !== 200 || !isDeepStrictEqual(paired.body, plain.body)) {
          findings.push({
            exchange: paired,
            finding: {
              code: `rule:${rule.id}`,
              rule: rule.id,
              title: `${rule.summary} Adding ${name}=${value} changed the answer`,
              received: { status: paired.status, body: paired.text.slice(0, 200) },
              documented: { status: 200, body: plain.text.slice(0, 200) },
            },
          });
        }
      }
    }
  }
  return { cases, findings };
}
