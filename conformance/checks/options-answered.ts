import type { Check, CheckContext, Exchange, Finding, PlanContext, PlannedGroup } from "../types.ts";

const NAME = "options-answered";

/** A path no document of this API routes (x-methods: OPTIONS there is the 404 GET gets). */
export const UNKNOWN_PATH = "/api/v1/dealkit-no-such-resource";

const lowerList = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** An OPTIONS that is no CORS preflight: it lacks Access-Control-Request-Method (the cors check judges preflights). */
const plainOptions = (e: Exchange) =>
  e.request.method === "OPTIONS" && e.request.headers["access-control-request-method"] === undefined;

/** A plain OPTIONS on one path of the document and one on a path of none. */
function plan(ctx: PlanContext): PlannedGroup[] {
  const op = ctx.spec.operations[0];
  if (!op) return [];
  const known = ctx.validCases(op.operationId)[0]?.pathname ?? op.path.replace(/\{[^}]+\}/g, "x");
  const options = (pathname: string, label: string) => ({
    method: "OPTIONS" as const,
    pathname,
    query: [],
    headers: {},
    label: `${NAME} ${label}`,
  });
  const requests = [options(known, "known path"), options(UNKNOWN_PATH, "unknown path")];
  // A fallback: sent after the plan while nothing else gave the check evidence (the budget is spoken for).
  const label = "OPTIONS, not a preflight, on a known and an unknown path";
  return [{ check: NAME, kind: "set", requests, label, fallback: true }];
}

function judgeKnown(ctx: CheckContext, e: Exchange): Finding[] {
  const { allow, options } = ctx.spec.methods;
  if (e.status !== options.status) {
    return [
      {
        code: `${NAME}/status`,
        title: `OPTIONS ${e.request.pathname} (not a preflight) answered ${e.status}`,
        received: e.status,
        documented: `${options.status} with Allow: ${allow.join(", ")} (x-methods.options)`,
      },
    ];
  }
  const listed = lowerList(e.headers.allow);
  if (allow.every((m) => listed.includes(m.toLowerCase()))) return [];
  return [
    {
      code: `${NAME}/allow`,
      title: `OPTIONS ${e.request.pathname} does not list ${allow.join(", ")} in Allow`,
      received: e.headers.allow ?? null,
      documented: allow.join(", "),
    },
  ];
}

function judgeUnknown(ctx: CheckContext, e: Exchange): Finding[] {
  const { unknown_path } = ctx.spec.methods.options;
  if (e.status === unknown_path && e.mediaType === "application/problem+json") return [];
  return [
    {
      code: `${NAME}/unknown-path`,
      title: `OPTIONS on an unknown path answered ${e.status} ${e.mediaType ?? "(no body type)"}`,
      received: { status: e.status, contentType: e.headers["content-type"] ?? null },
      documented: { status: unknown_path, contentType: "application/problem+json" },
    },
  ];
}

/** Any OPTIONS is answered, a preflight or not: 204 with Allow on the document's paths, 404 elsewhere. */
export const optionsAnswered: Check = {
  name: NAME,
  title: "OPTIONS that is no preflight answered wrongly",
  verifies:
    "An OPTIONS without Access-Control-Request-Method answers 204 with Allow: GET, HEAD, OPTIONS on a path of the document, and a 404 problem on any other path.",
  source: "x-methods.options",
  severity: "low",
  plan,
  judge(ctx, exchange) {
    if (!plainOptions(exchange) || exchange.failure || exchange.status >= 500) return null;
    if (exchange.status === ctx.spec.rateLimit.status) return null;
    return ctx.spec.match(exchange.request.pathname)
      ? judgeKnown(ctx, exchange)
      : judgeUnknown(ctx, exchange);
  },
  informative: (ctx, exchange) =>
    plainOptions(exchange) && !exchange.failure && exchange.status !== ctx.spec.rateLimit.status,
};
