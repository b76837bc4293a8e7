/**
 * The fixed cases that run before any random one: each parameter at each valid boundary (the
 * others at their base value), then each parameter at each invalid boundary, a missing required
 * parameter and a parameter given twice.
 */
import type { Operation } from "../../src/spec/types.ts";
import type { Credentials, RequestCase } from "../types.ts";
import { exampleValue, invalidBoundaries, validBoundaries } from "./params.ts";
import { type Account, buildCase } from "./requests.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** Required parameters at their example value: the smallest valid request. */
export function baseValues(op: Operation, vocab: Vocabulary): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of op.parameters) if (p.required && p.in !== "header") values[p.name] = exampleValue(p, vocab);
  return values;
}

/**
 * The fixed cases of an operation in the order they run: numeric boundaries and invalid values
 * first, then (`sweeps`) every value of each enum, which a small request budget may cut.
 */
export function boundaryCases(
  op: Operation,
  vocab: Vocabulary,
  account?: Account,
): { first: RequestCase[]; sweeps: RequestCase[] } {
  const sweeps: RequestCase[] = [];
  const credentials: Credentials | undefined = op.secured ? (account ? "valid" : "invalid") : undefined;
  const base = baseValues(op, vocab);
  const cases: RequestCase[] = [buildCase(op, { values: base, credentials, label: "base" }, account)];
  const params = op.parameters.filter(
    (p) => p.in !== "header" && !(op.secured && p.name === "uid" && account),
  );
  for (const p of params) {
    for (const v of validBoundaries(p)) {
      (p.schema.enum ? sweeps : cases).push(
        buildCase(
          op,
          { values: { ...base, [p.name]: v }, credentials, label: `boundary ${p.name}=${v}` },
          account,
        ),
      );
    }
  }
  for (const p of params) {
    for (const v of invalidBoundaries(p)) {
      cases.push(
        buildCase(
          op,
          { values: { ...base, [p.name]: v }, credentials, label: `invalid ${p.name}=${v}` },
          account,
        ),
      );
    }
    if (p.required && p.in === "query") {
      const { [p.name]: _, ...rest } = base;
      cases.push(buildCase(op, { values: rest, credentials, label: `missing ${p.name}` }, account));
    }
  }
  const twice = params.find((p) => p.in === "query");
  if (twice) {
    const v = exampleValue(twice, vocab);
    const values = { ...base, [twice.name]: v };
    cases.push(
      buildCase(op, { values, credentials, extra: [[twice.name, v]], label: `${twice.name} twice` }, account),
    );
  }
  return { first: cases, sweeps };
}
