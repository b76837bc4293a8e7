import type { Check, CheckContext, Exchange } from "../types.ts";
import { noEvidence } from "../types.ts";
import { routed } from "./guards.ts";

/** The frozen releases that hold the answer's operation (a newer operation is in none of them). */
const releasesOf = (ctx: CheckContext, exchange: Exchange) =>
  ctx.releases.filter((r) =>
    r.spec.operations.some((o) => o.operationId === exchange.operation?.operationId),
  );

/**
 * Within v1 fields are only added: a 200 body that satisfies the current document must also
 * satisfy every frozen v1 release (a removed or retyped field fails here). Bodies the current
 * schema already rejects are response-schema's finding, not this one's.
 */
export const versioning: Check = {
  name: "versioning",
  title: "Response breaks a frozen v1 release",
  verifies:
    "Every 200 body also validates against each frozen release in openapi/releases/ (fields only added within v1).",
  source: "x-versioning (additive_only, releases_dir)",
  severity: "high",
  judge(ctx, exchange) {
    if (!routed(exchange) || exchange.status !== 200 || !exchange.mediaType) return null;
    const { operationId } = exchange.operation;
    const current = ctx.spec.responseValidator(operationId, 200, exchange.mediaType);
    if (!current?.(exchange.body)) return null;
    const findings = [];
    for (const release of releasesOf(ctx, exchange)) {
      const validate = release.spec.responseValidator(operationId, 200, exchange.mediaType);
      if (!validate) {
        findings.push({
          code: "versioning/media-type",
          title: `${operationId} 200 ${exchange.mediaType} is not in release ${release.version}`,
          received: exchange.mediaType,
          documented: `release ${release.version}`,
        });
      } else if (!validate(exchange.body)) {
        const e = validate.errors?.[0];
        findings.push({
          code: "versioning",
          title: `${operationId} 200 body breaks release ${release.version}: ${e?.instancePath || "/"} ${e?.message ?? ""}`,
          received: (validate.errors ?? [])
            .slice(0, 3)
            .map((x) => `${x.instancePath || "/"} ${x.message ?? ""}`),
          documented: `release ${release.version}`,
        });
      }
    }
    return findings;
  },
  // A body is evidence only where some frozen release holds its operation: else nothing could break.
  informative: (ctx, exchange) =>
    releasesOf(ctx, exchange).length > 0 ? true : noEvidence("no frozen release for this operation"),
};
