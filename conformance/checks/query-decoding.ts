import { refusingRules } from "../../src/rules/evaluate.ts";
import { queryDecodingErrors } from "../../src/spec/request.ts";
import type { Operation } from "../../src/spec/types.ts";
import { servedBase } from "../arbitraries/boundaries.ts";
import type {
  Check,
  CheckContext,
  Exchange,
  Finding,
  PlanContext,
  PlannedGroup,
  RequestCase,
} from "../types.ts";
import { isServerError, rateLimited, routed } from "./guards.ts";

const NAME = "query-decoding";

/** Values no strict decoder reads: a `%` without hex digits, a cut UTF-8 sequence (x-query-string.decoding). */
export const UNDECODABLE = ["%zz", "%E5%88"];

/** The query as it went out, before any decoding. */
const sentQuery = (e: Exchange) => new URL(e.url).search.slice(1);

/**
 * The edges of the trim set (info.description "Characters and words"): U+FEFF alone is trimmed
 * to no word, U+0085 alone is a word (Unicode's White_Space set would say the opposite of both).
 */
export const TRIM_EDGES = ["%EF%BB%BF", "%C2%85"];

/**
 * On the first operation with two word lists (search's q and kp): one undecodable value in each
 * (both must be named); then, alone in the first, `+` (a space, so no word) and the trim set's
 * edges. Sent as written, never re-encoded. What the decoded words mean (a search without
 * criterion, or one word served) is judged by the rules and valid-inputs-accepted: one fault, one
 * check; this check judges the undecodable ones.
 */
function plan(ctx: PlanContext): PlannedGroup[] {
  const words = (o: Operation) => o.parameters.filter((p) => p.in === "query" && p.words);
  const op = ctx.spec.operations.find((o) => words(o).length >= UNDECODABLE.length);
  const [param, other] = op ? words(op) : [];
  if (!op || !param || !other) return [];
  const base = ctx.validCases(op.operationId)[0];
  const values = servedBase(ctx.spec, op, ctx.vocabulary);
  const kept = new URLSearchParams(Object.entries(values).filter(([k]) => k !== param.name)).toString();
  const raw = (value: string, more = ""): RequestCase => ({
    method: "GET",
    operationId: op.operationId,
    pathname: base?.pathname ?? op.path,
    query: [],
    rawQuery: [kept, `${param.name}=${value}`, more].filter(Boolean).join("&"),
    headers: base?.headers ?? {},
    ...(base?.credentials ? { credentials: base.credentials } : {}),
    label: `${NAME} ${param.name}=${value}${more && `&${more}`}`,
  });
  const requests = [
    raw(UNDECODABLE[0] ?? "", `${other.name}=${UNDECODABLE[1]}`),
    raw("+"),
    ...TRIM_EDGES.map((v) => raw(v)),
  ];
  // A fallback: sent after the plan while nothing else gave the check evidence (the budget is spoken for).
  const label = `${op.operationId}: ${param.name} sent raw`;
  return [{ check: NAME, kind: "set", requests, label, fallback: true }];
}

function judgeUndecodable(
  ctx: CheckContext,
  e: Exchange & { operation: object },
  names: string[],
): Finding[] {
  const body = e.body as { type?: unknown; errors?: { name?: unknown }[] } | undefined;
  const named = Array.isArray(body?.errors) ? body.errors.map((x) => x?.name) : [];
  const missing = names.filter((n) => !named.includes(n));
  const parsed = e.parsed;
  const op = e.operation as NonNullable<Exchange["operation"]>;
  // A refusing rule (no search criterion) names its own type; the undecodable value is then listed with it.
  const type = parsed && refusingRules(ctx.spec, op, parsed).length > 0 ? undefined : "invalid-parameter";
  const typeOk = type === undefined || (typeof body?.type === "string" && body.type.endsWith(`/${type}`));
  if (e.status === 400 && e.mediaType === "application/problem+json" && missing.length === 0 && typeOk)
    return [];
  return [
    {
      code: e.status === 400 ? `${NAME}/problem` : NAME,
      title: `${op.operationId} answered ${e.status} to ${names.join(", ")} that do not decode (${sentQuery(e)})`,
      received: {
        status: e.status,
        contentType: e.mediaType ?? null,
        type: body?.type ?? null,
        names: named,
      },
      documented: {
        status: 400,
        contentType: "application/problem+json",
        type: type ?? "(the refusing rule's)",
        names,
      },
    },
  ];
}

/** A query string that does not decode is refused, naming each parameter it breaks (x-query-string.decoding). */
export const queryDecoding: Check = {
  name: NAME,
  title: "Undecodable query not refused with a 400 naming the parameter",
  verifies:
    "A value with a % not followed by two hex digits or bytes that are not UTF-8 gets 400 invalid-parameter problem+json naming the parameter (+ is a space: judged by the rules).",
  source: "x-query-string.decoding",
  severity: "medium",
  plan,
  judge(ctx, exchange) {
    if (!routed(exchange) || isServerError(exchange.status) || rateLimited(ctx.spec, exchange)) return null;
    // Bad credentials are answered 401 before parameters are read.
    if (exchange.operation.secured && exchange.request.credentials !== "valid") return null;
    const names = queryDecodingErrors(sentQuery(exchange)).map((e) => e.name);
    return names.length === 0 ? null : judgeUndecodable(ctx, exchange, names);
  },
  informative(ctx, exchange) {
    return (
      routed(exchange) &&
      !rateLimited(ctx.spec, exchange) &&
      !(exchange.operation.secured && exchange.request.credentials !== "valid") &&
      queryDecodingErrors(sentQuery(exchange)).length > 0
    );
  },
};
