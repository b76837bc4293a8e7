import type { Spec } from "../../src/spec/spec.ts";
import type { Check, Finding } from "../types.ts";
import { noEvidence } from "../types.ts";
import { routed } from "./guards.ts";

const KEYS = ["minimum", "maximum", "default"] as const;

/** Every bounded numeric parameter of the spec, with its operation. */
const bounded = (spec: Spec) =>
  spec.operations.flatMap((op) =>
    op.parameters
      .filter(
        (p) =>
          (p.schema.type === "integer" || p.schema.type === "number") &&
          (p.schema.minimum !== undefined || p.schema.maximum !== undefined),
      )
      .map((p) => ({ op, p })),
  );

/**
 * The manifest's `limits` state the bounds of every bounded numeric parameter as the spec does
 * (no x-conformance mirror covers them: the parameter schemas are the source). A client that
 * sizes its requests from the manifest must not be led outside the documented range.
 */
export const metaLimits: Check = {
  name: "meta-limits",
  title: "Manifest limits disagree with the spec",
  verifies:
    "meta data.limits gives every bounded numeric parameter exactly the minimum, maximum and default of its schema (a key the schema lacks is absent).",
  source: 'getMeta description ("the limits of every parameter"); components.parameters',
  severity: "medium",
  judge(ctx, exchange) {
    if (!routed(exchange) || exchange.operation.operationId !== "getMeta" || exchange.status !== 200)
      return null;
    const limits = (
      exchange.body as { data?: { limits?: Record<string, Record<string, Record<string, unknown>>> } }
    )?.data?.limits;
    const findings: Finding[] = [];
    for (const { op, p } of bounded(ctx.spec)) {
      const s = p.schema;
      const stated = limits?.[op.operationId]?.[p.name];
      const documented = Object.fromEntries(KEYS.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
      // A key the schema lacks must be absent, not null or invented (a default that is not one).
      const wrong = KEYS.filter((k) =>
        s[k] !== undefined ? stated?.[k] !== s[k] : stated !== undefined && k in stated,
      );
      if (wrong.length > 0) {
        findings.push({
          code: "meta-limits",
          title: `manifest limits of ${op.operationId} ${p.name} differ in ${wrong.join(", ")}`,
          received: stated ?? null,
          documented,
        });
      }
    }
    return findings;
  },
  // A manifest is evidence when the spec bounds some parameter it must state.
  informative: (ctx) =>
    bounded(ctx.spec).length > 0 ? true : noEvidence("the spec bounds no numeric parameter"),
};
