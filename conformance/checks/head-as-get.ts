import type {
  Check,
  CheckContext,
  Exchange,
  Finding,
  PlanContext,
  PlannedGroup,
  SentGroup,
} from "../types.ts";
import { isServerError } from "./guards.ts";

const NAME = "head-as-get";

/** Headers a HEAD must carry when its GET does: what a client or monitor reads from a HEAD. */
const MIRRORED = [
  "content-type",
  "cache-control",
  "access-control-allow-origin",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
];

/**
 * One operation of each kind of answer (public or personal, by the media type of its 200): its
 * best valid request as GET and then as HEAD, back to back from one address, each a fallback
 * sent while the check has no evidence (the next kind when a pair was refused or failed). Every
 * operation would cost two requests each of a budget of about 60 a minute; a server answers HEAD
 * per kind of answer, not per path (and passive traffic judges any other pair it holds).
 */
function plan(ctx: PlanContext): PlannedGroup[] {
  const kinds = new Set<string>();
  return ctx.spec.operations.flatMap((op) => {
    const kind = `${op.secured} ${Object.keys(ctx.spec.response(op.operationId, 200)?.content ?? {}).join()}`;
    const get = ctx.validCases(op.operationId)[0];
    if (!get || kinds.has(kind)) return [];
    kinds.add(kind);
    const requests = [
      { ...get, label: `${NAME} GET` },
      { ...get, method: "HEAD" as const, label: `${NAME} HEAD` },
    ];
    // Fallbacks: the plan's budget is spoken for; a pair is sent while the check has no evidence.
    return [
      {
        check: NAME,
        kind: "set" as const,
        requests,
        label: `${op.operationId}: GET, then HEAD`,
        fallback: true,
      },
    ];
  });
}

const mediaType = (e: Exchange) => e.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();

/** What differs between the HEAD and the GET it mirrors (none when they are not comparable). */
function differences(get: Exchange, head: Exchange): Finding[] {
  const at = `${head.request.pathname}`;
  if (head.status !== get.status) {
    return [
      {
        code: `${NAME}/status`,
        title: `HEAD ${at} answered ${head.status} where GET answered ${get.status}`,
        received: head.status,
        documented: `${get.status}, as GET (x-methods.head: as-get)`,
      },
    ];
  }
  const findings: Finding[] = [];
  if (mediaType(head) !== mediaType(get)) {
    findings.push({
      code: `${NAME}/content-type`,
      title: `HEAD ${at} says Content-Type ${head.headers["content-type"] ?? "(none)"}, GET ${get.headers["content-type"]}`,
      received: head.headers["content-type"] ?? null,
      documented: get.headers["content-type"] ?? null,
    });
  }
  const missing = MIRRORED.filter((h) => get.headers[h] !== undefined && head.headers[h] === undefined);
  if (missing.length > 0) {
    findings.push({
      code: `${NAME}/headers`,
      title: `HEAD ${at} lacks ${missing.join(", ")}, which GET carries`,
      received: Object.fromEntries(missing.map((h) => [h, null])),
      documented: Object.fromEntries(missing.map((h) => [h, get.headers[h]])),
    });
  }
  return findings;
}

/** A GET and its HEAD that both got a whole answer, neither refused by the limiter nor failing. */
function comparable(ctx: CheckContext, group: SentGroup): [Exchange, Exchange] | undefined {
  const [get, head] = group.exchanges;
  if (!get || !head || get.request.method !== "GET" || head.request.method !== "HEAD") return undefined;
  const usable = (e: Exchange) =>
    !e.failure && e.status !== ctx.spec.rateLimit.status && !isServerError(e.status);
  return usable(get) && usable(head) ? [get, head] : undefined;
}

/** RFC 9110 9.3.2: HEAD on every GET resource, the same status and headers, no body; counted like GET. */
export const headAsGet: Check = {
  name: NAME,
  title: "HEAD not answered as GET",
  verifies:
    "HEAD of a valid request answers the status, Content-Type and the CORS, Cache-Control and RateLimit-* headers its GET answers (a GET, HEAD pair sent back to back; any such pair in traffic).",
  source: "x-methods.head",
  severity: "medium",
  plan,
  judgeGroup(ctx, group) {
    const pair = comparable(ctx, group);
    if (!pair) {
      return {
        findings: [],
        informative: false,
        inconclusive: "the GET or the HEAD got no whole answer of its own (a failure, a 5xx or a 429)",
      };
    }
    const [get, head] = pair;
    return {
      findings: differences(get, head).map((finding) => ({ finding, exchange: head })),
      informative: true,
    };
  },
};
