/**
 * x-client-rules read from the spec: what the contract asks of clients, with every parameter
 * resolved (a `{ spec: POINTER }` parameter is the value the pointed extension states), so the
 * judge never re-types a number the spec holds.
 */
import { get } from "../../src/rules/pointer.ts";
import type { Spec } from "../../src/spec/spec.ts";

export const CLIENT_RULE_IDS = [
  "client-waits-retry-after",
  "client-paces-below-limit",
  "client-request-refused",
  "client-repeats-refused-request",
  "client-key-in-header",
  "client-no-key-to-public",
  "client-one-account-per-key",
  "client-ignores-unknown-fields",
] as const;

export type ClientRuleId = (typeof CLIENT_RULE_IDS)[number];

export interface ClientRule {
  id: ClientRuleId;
  summary: string;
  source: string;
}

/** The parameters the judge uses, resolved. */
export interface ClientRules {
  rules: ClientRule[];
  refusalStatus: number;
  preflightCounted: boolean;
  toleranceSeconds: number;
  windowSeconds: number;
  maxRefusals: number;
  /** A 4xx in this range, but the refusal status, is a refused request. */
  refused: { from: number; to: number };
  /** Lower-cased. */
  keyHeader: string;
  /** Lower-cased query names a key must not travel under. */
  keyQueryNames: string[];
  uidParameter: string;
  /** Lower-cased. */
  variationsHeader: string;
  /** window / limit: a repeat sooner than this after a varied answer is "at once". */
  pacedSpacingSeconds: number;
}

interface RawRule extends ClientRule {
  parameters: Record<string, unknown>;
}

/** A parameter as written, or the value its `{ spec: POINTER }` names in the document. */
function resolved(spec: Spec, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && "spec" in value) {
    const pointer = String((value as { spec: unknown }).spec);
    const found = get(spec.doc, pointer);
    if (found === undefined) throw new Error(`x-client-rules: ${pointer} names nothing in the spec`);
    return found;
  }
  return value;
}

function param(spec: Spec, rules: RawRule[], id: ClientRuleId, name: string): unknown {
  const rule = rules.find((r) => r.id === id);
  if (!rule) throw new Error(`x-client-rules has no rule ${id}`);
  if (!(name in rule.parameters)) throw new Error(`x-client-rules ${id} has no parameter ${name}`);
  return resolved(spec, rule.parameters[name]);
}

/** The client rules of the spec; throws when one the judge needs is missing. */
export function readClientRules(spec: Spec): ClientRules {
  const ext = (spec.doc as { "x-client-rules"?: { rules?: RawRule[] } })["x-client-rules"];
  const raw = ext?.rules ?? [];
  const unknown = raw.find((r) => !(CLIENT_RULE_IDS as readonly string[]).includes(r.id));
  if (unknown) throw new Error(`x-client-rules: the judge has no rule ${unknown.id}`);
  const p = (id: ClientRuleId, name: string) => param(spec, raw, id, name);
  const spacing = (p("client-ignores-unknown-fields", "paced_spacing") as unknown[]).map((v) =>
    Number(resolved(spec, v)),
  );
  return {
    rules: raw.map((r) => ({ id: r.id, summary: r.summary, source: r.source })),
    refusalStatus: Number(p("client-waits-retry-after", "refusal_status")),
    preflightCounted: Boolean(p("client-waits-retry-after", "preflight_counted")),
    toleranceSeconds: Number(p("client-waits-retry-after", "tolerance_seconds")),
    windowSeconds: Number(p("client-paces-below-limit", "window_seconds")),
    maxRefusals: Number(p("client-paces-below-limit", "max_refusals")),
    refused: p("client-request-refused", "refused_statuses") as { from: number; to: number },
    keyHeader: String(p("client-key-in-header", "key_header")).toLowerCase(),
    keyQueryNames: (p("client-key-in-header", "query_names") as string[]).map((n) => n.toLowerCase()),
    uidParameter: String(p("client-one-account-per-key", "uid_parameter")),
    variationsHeader: String(p("client-ignores-unknown-fields", "variations_header")).toLowerCase(),
    pacedSpacingSeconds: (spacing[0] ?? 0) / (spacing[1] ?? 1),
  };
}
